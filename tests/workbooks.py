"""Workbooks built by hand, part by part, for the reader's limits (engine/xlsx.py): what no
spreadsheet program writes, but anyone can upload."""

import io
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
CONTENT_TYPES = (
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
)
WORKBOOK = (
    f'<workbook xmlns="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships"><sheets><sheet name="names" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
RELATIONSHIPS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
)
SHEET = (
    f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>'
    "</sheetData></worksheet>"
)


def shared_strings_workbook(strings: list[str] | None = None, *, count: int = 0, width: int = 0):
    """An .xlsx whose one cell, A1, shows the first of its shared strings: `strings`, or
    `count` strings of `width` digits each. Many strings make a small file (they compress
    well) whose whole table the reader parses before the sheet: a slow workbook."""
    if strings is None:
        items = "".join(f"<si><t>{i:0{width}d}</t></si>" for i in range(count))
    else:
        items = "".join(f"<si><t>{text}</t></si>" for text in strings)
    parts = {
        "[Content_Types].xml": CONTENT_TYPES,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": RELATIONSHIPS,
        "xl/worksheets/sheet1.xml": SHEET,
        "xl/sharedStrings.xml": f'<sst xmlns="{MAIN}">{items}</sst>',
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


# About 2 MB; 900,000 shared strings of 15 digits, within the reader's caps: 1-2 s of one
# core to preview on a quiet machine, several on a busy one.
def slow_workbook() -> bytes:
    return shared_strings_workbook(count=900_000, width=15)
