"""The drawing room: pure functions on geometry that make what a job or project shows,
called by the services (which look things up and run these in limited children):
poster composition (poster, sticker_svg), custom.svg's engraving fills (custom_svg,
fill_patterns), line-spacing figures (line_spacing) and the zoom tiles (tiles)."""
