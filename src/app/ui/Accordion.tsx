import { Accordion as RadixAccordion } from 'radix-ui';
import type { ReactNode } from 'react';
import { IconChevronDown } from './icons';

export interface AccordionSection {
  key: string;
  title: ReactNode;
  /** Shown at the end of the header (e.g. a count). */
  aside?: ReactNode;
  content: ReactNode;
}

/** Sections that open and close independently; `value` is the list of open keys (saved by the caller). */
export function Accordion({
  sections,
  value,
  onValueChange,
}: {
  sections: readonly AccordionSection[];
  value: string[];
  onValueChange: (value: string[]) => void;
}) {
  return (
    <RadixAccordion.Root type="multiple" className="accordion" value={value} onValueChange={onValueChange}>
      {sections.map((s) => (
        <RadixAccordion.Item key={s.key} value={s.key} className="accordion__item">
          <RadixAccordion.Header className="accordion__header">
            <RadixAccordion.Trigger className="accordion__trigger">
              <IconChevronDown size={16} className="accordion__chevron" />
              <span className="accordion__title">{s.title}</span>
              {s.aside !== undefined && <span className="accordion__aside">{s.aside}</span>}
            </RadixAccordion.Trigger>
          </RadixAccordion.Header>
          <RadixAccordion.Content className="accordion__content">{s.content}</RadixAccordion.Content>
        </RadixAccordion.Item>
      ))}
    </RadixAccordion.Root>
  );
}
