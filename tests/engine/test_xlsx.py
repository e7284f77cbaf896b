import datetime
import zipfile

import openpyxl
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from wordclouds.engine import InputError, read_names
from wordclouds.engine.xlsx import worksheet_rows

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def hand_written(path, rows: str, strings: str, prolog: str = ""):
    """An .xlsx of one worksheet holding ``rows`` and shared strings ``strings``, as raw XML."""
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            f'<Override PartName="/xl/workbook.xml" ContentType="{TYPE}.sheet.main+xml"/>'
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{TYPE}.sharedStrings+xml"/>'
            "</Types>"
        ),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN}" xmlns:r="{RELATIONS}">'
            '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PACKAGE}"><Relationship Id="rId1" '
            f'Type="{RELATIONS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>',
        "xl/sharedStrings.xml": f'<?xml version="1.0"?>{prolog}<sst xmlns="{MAIN}">{strings}</sst>',
    }
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return path


def ours(path, width):
    with zipfile.ZipFile(path) as archive:
        return {
            number: tuple(cells.get(column) for column in range(width))
            for number, cells in worksheet_rows(archive, range(width))
            if any(value is not None for value in cells.values())
        }


def openpyxls(path, width):
    workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    sheet = workbook.worksheets[0]
    sheet.reset_dimensions()
    rows = sheet.iter_rows(max_col=width, values_only=True)
    table = {number: row for number, row in enumerate(rows, start=1) if any(row)}
    workbook.close()
    return table


def test_values_are_openpyxls(tmp_path):
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.append(["name", 1, 2.5, True, None, 3e20])
    sheet.append([CellRichText(["a", TextBlock(InlineFont(b=True), "b")]), "x005F_y", False])
    sheet.append([datetime.datetime(2024, 5, 1, 12, 30), datetime.timedelta(hours=30), "#N/A"])
    sheet["D3"], sheet["D3"].number_format = 45000, "0.00%"
    sheet["A9"] = "王 小明"
    workbook.create_sheet("second")["A1"] = "not read"
    path = tmp_path / "typed.xlsx"
    workbook.save(path)
    assert ours(path, 6) == openpyxls(path, 6)


def test_raw_xml_is_read_as_openpyxl_reads_it(tmp_path):
    strings = (
        "<si><t>plain</t></si>"
        '<si><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch </t></r>'
        '<rPh sb="0" eb="1"><t>PHONETIC</t></rPh></si>'
        "<si><t>a&amp;b &#x738B;</t></si>"
    )
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c t="s"><v>1</v></c><c t="s"><v>2</v></c></row>'
        '<row><c t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c>'
        '<c t="str"><f>A1</f><v>formula</v></c><c t="e"><v>#DIV/0!</v></c><c t="b"><v>1</v></c>'
        "<c><v>1.5E3</v></c></row>"
        '<row r="5"><c r="A5"><v>7</v></c></row>'
        '<row r="4"><c r="A4"><v>99</v></c></row>'  # after a later row: left out
        '<row r="6"><c r="A6"><v>-3</v></c><c r="A6"><v>4</v></c></row>'  # the last one counts
    )
    path = hand_written(tmp_path / "raw.xlsx", rows, strings)
    assert ours(path, 5) == openpyxls(path, 5)
    assert ours(path, 5)[1] == ("plain", "rich ", "a&b 王", None, None)


@pytest.mark.parametrize(
    "prolog",
    [
        '<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>',
        '<!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    ],
)
def test_entity_declarations_are_refused(tmp_path, prolog):
    path = hand_written(
        tmp_path / "entities.xlsx",
        '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
        "<si><t>x</t></si>",
        prolog,
    )
    with pytest.raises(InputError, match="^name_list is not a readable xlsx file$"):
        read_names(path, column=0, skip_rows=0)
