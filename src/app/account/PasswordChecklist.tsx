import { MSG, type PasswordCriteria } from '../../contract';
import { IconCheck, IconCircle } from '../ui/icons';

/** The live password criteria of spec section 5, ticked as the user types. */
export function PasswordChecklist({ criteria }: { criteria: PasswordCriteria }) {
  const items = [
    { met: criteria.length, text: MSG.criterionLength },
    { met: criteria.match, text: MSG.criterionMatch },
  ];
  return (
    <ul className="checklist" aria-label="Password requirements">
      {items.map((item) => (
        <li key={item.text} className={`checklist__item${item.met ? ' checklist__item--met' : ''}`}>
          <span className="checklist__mark">{item.met ? <IconCheck size={16} strokeWidth={2.6} /> : <IconCircle size={16} />}</span>
          <span>{item.text}</span>
          <span className="visually-hidden">{item.met ? '(met)' : '(not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
