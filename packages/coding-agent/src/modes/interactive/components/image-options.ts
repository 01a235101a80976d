// How inline images are drawn (settings `terminal.imageWidthCells`); set once
// by InteractiveMode at start-up, read by the items that show images.
export const imageOptions = { maxWidthCells: 60 };
