/** Pure timeline maths: data in, data out, no DOM and no Pixi. */
export * from './autoScroll';
export * from './frames';
export * from './handles';
export * from './keyboard';
export * from './ruler';
export * from './tiles';
export * from './timecode';
export * from './zoom';
export * from './wheel';
