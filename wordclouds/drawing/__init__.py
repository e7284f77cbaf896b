"""The drawing room: pure functions that take prepared inputs (paths, boxes, colours, images)
and return documents, never reading models or storage, running queries or forking; the
services read what they need, run these in limited children and split them over processes:
poster composition (poster, sticker_svg), custom.svg's engraving fills (custom_svg,
fill_patterns), line-spacing figures (line_spacing) and the zoom tiles (tiles)."""
