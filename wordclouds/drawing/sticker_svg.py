"""An SVG asset made ready to sit in a poster as a nested `<svg>` stretched to a box.

Uploaded SVG is untrusted and several stickers share one document, so the element is cleaned
(no scripts, event handlers, foreign objects or references outside the document, which resvg
would otherwise read from the local disk) and its ids and classes are prefixed per sticker, so
that two stickers with the same ids (two word clouds) or classes (`.cls-1` of two exported
drawings) do not take each other's gradients, paths or styles. Type selectors in a sticker's
style sheet (`path {...}`) still reach the whole poster in render.svg.
"""

import re
from pathlib import Path
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as safe_xml

from wordclouds.engine.svg_geometry import UNITS_PX, svg_number

SVG_NS = "http://www.w3.org/2000/svg"
# ElementTree's `default_namespace` refuses unprefixed attributes, so SVG is made the default
# namespace of every serialisation instead (what any SVG writer in this process wants).
ElementTree.register_namespace("", SVG_NS)
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
DROPPED_ELEMENTS = {"script", "foreignObject"}
LENGTH = re.compile(r"\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\s*([a-z]*)\s*")
URL_PATTERN = r"url\(\s*['\"]?([^'\")]*?)['\"]?\s*\)"
# Two empty groups, so that both patterns answer (url target, selector sign, selector name).
URL_REFERENCE = re.compile(URL_PATTERN + "()()")
# In a style sheet: a url(...) as a whole, else an id or class selector name.
CSS_REFERENCE = re.compile(URL_PATTERN + r"|([.#])(-?[_a-zA-Z][\w-]*)")
# resvg and browsers size an SVG without width, height or viewBox at 100×100.
FALLBACK_SIZE = 100.0


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _length(text: str | None) -> float | None:
    match = LENGTH.fullmatch(text or "")
    if not match or match.group(2) not in UNITS_PX:
        return None
    return float(match.group(1)) * UNITS_PX[match.group(2)]


class _Scope:
    """Renames one sticker's ids and classes with its prefix, and the references to them in
    attributes and style sheets; references that leave the document become `none`."""

    def __init__(self, root: Element, prefix: str):
        self.prefix = prefix
        self.ids = {element.get("id") for element in root.iter() if element.get("id")}
        self.classes = {
            name for element in root.iter() for name in (element.get("class") or "").split()
        }

    def _css_reference(self, match: re.Match) -> str:
        target, sign, name = match.groups()
        if sign:
            known = self.classes if sign == "." else self.ids
            return f"{sign}{self.prefix}{name}" if name in known else match.group(0)
        target = target.strip()
        if target.startswith("#") and target[1:] in self.ids:
            return f"url(#{self.prefix}{target[1:]})"
        return "none"

    def urls(self, text: str) -> str:
        return URL_REFERENCE.sub(self._css_reference, text)

    def style_sheet(self, text: str) -> str:
        return CSS_REFERENCE.sub(self._css_reference, text)

    def href(self, element: Element, value: str) -> None:
        """Keep references inside the document (renamed) and embedded data; drop the rest."""
        value = value.strip()
        if value.startswith("#") and value[1:] in self.ids:
            element.set("href", f"#{self.prefix}{value[1:]}")
        elif value.startswith("data:"):
            element.set("href", value)
        else:
            del element.attrib["href"]


def _clean(root: Element, prefix: str) -> None:
    """Drop active and external content, move unqualified tags into the SVG namespace
    (documents without xmlns), use SVG 2 `href`, and scope ids and classes to the sticker."""
    for parent in list(root.iter()):
        for child in list(parent):
            if not isinstance(child.tag, str) or _local(child.tag) in DROPPED_ELEMENTS:
                parent.remove(child)
    scope = _Scope(root, prefix)
    for element in root.iter():
        if "}" not in element.tag:
            element.tag = f"{{{SVG_NS}}}{element.tag}"
        if XLINK_HREF in element.attrib:
            element.set("href", element.attrib.pop(XLINK_HREF))
        for key, value in list(element.attrib.items()):
            if _local(key).lower().startswith("on"):
                del element.attrib[key]
            elif key == "href":
                scope.href(element, value)
            elif key == "id":
                element.set(key, prefix + value)
            elif key == "class":
                element.set(key, " ".join(prefix + name for name in value.split()))
            elif "url(" in value:
                element.set(key, scope.urls(value))
        if _local(element.tag) == "style" and element.text:
            element.text = scope.style_sheet(element.text)


def _view_box(root: Element) -> str:
    if root.get("viewBox"):
        return root.get("viewBox")
    width = _length(root.get("width")) or FALLBACK_SIZE
    height = _length(root.get("height")) or FALLBACK_SIZE
    return f"0 0 {svg_number(width)} {svg_number(height)}"


def sticker_svg_element(path: Path, index: int) -> Element:
    """The asset's root `<svg>`, cleaned, with a viewBox and stretched to whatever width and
    height the caller sets (`preserveAspectRatio="none"`)."""
    root = safe_xml.parse(str(path)).getroot()
    _clean(root, f"s{index}-")
    root.set("viewBox", _view_box(root))
    root.set("preserveAspectRatio", "none")
    for key in ("x", "y", "width", "height"):
        root.attrib.pop(key, None)
    return root
