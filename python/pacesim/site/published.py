"""What the site publishes of the files `pacesim reproduce` drew: nothing that can run in a browser.

The site copies each figure's PNG, SVG and CSV from `<results>/reproduce/<figure>/`, a directory
anyone who can write the store can write. An SVG is a document: opened from the site (its page links
it), a `<script>`, an `onload=` or a `javascript:` link in it would run with the site's origin. So an
SVG is parsed and written again keeping only what a drawing needs (`SVG_ELEMENTS`, the metadata
matplotlib writes, attributes that are not event handlers, links within the file or to embedded
PNG/JPEG data, style without imports or outside URLs); one that is not well-formed XML, or larger than
`MAX_SVG_BYTES`, is not published. A PNG is published only if it is one (its signature), and a CSV as
it is (text, which a browser does not run).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Optional

from .. import outfile

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
METADATA = {"http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://purl.org/dc/elements/1.1/",
            "http://creativecommons.org/ns#"}
"""RDF, Dublin Core and Creative Commons: the namespaces of the metadata matplotlib writes (inert)."""
SVG_ELEMENTS = {"svg", "g", "defs", "metadata", "title", "desc", "style", "path", "rect", "circle", "ellipse",
                "line", "polyline", "polygon", "text", "tspan", "textPath", "use", "symbol", "clipPath", "mask",
                "marker", "pattern", "linearGradient", "radialGradient", "stop", "image", "filter",
                "feGaussianBlur", "feOffset", "feBlend", "feFlood", "feComposite", "feMerge", "feMergeNode"}
"""The SVG elements a drawing keeps: shapes, text, grouping and painting. Not `script`, `foreignObject`
(HTML inside), `a`, `iframe`, `animate` and `set` (which can change an attribute into a link), nor
anything of another namespace (XHTML's `script`)."""
MAX_SVG_BYTES = 32 * 10**6
"""The largest SVG published (matplotlib's figures are well under a few MB)."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SAFE_LINK = re.compile(r"\s*(#|data:image/(png|jpeg);base64,)", re.I)
"""A link a drawing may hold: to an element of the same file, or to a PNG or JPEG embedded in it."""
UNSAFE_STYLE = re.compile(r"@import|url\s*\(\s*(?![\"']?\s*#)|expression\s*\(|javascript:|behaviou?r\s*:|\\", re.I)
"""Style that fetches or runs something: an import, a URL outside the file, IE's expression(); or any CSS
escape (a backslash), which could spell them past the rest (an import or a url( with a letter escaped as its
hex code): a drawing needs none."""

ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


def _split(tag: str) -> tuple[str, str]:
    """("namespace", "local name") of an ElementTree tag or attribute name."""
    if tag.startswith("{"):
        ns, _, local = tag[1:].partition("}")
        return ns, local
    return "", tag


def _allowed(element: ET.Element) -> bool:
    ns, local = _split(element.tag)
    return (ns == SVG and local in SVG_ELEMENTS) or ns in METADATA


def _clean(element: ET.Element) -> None:
    """Remove from `element`'s subtree every element not `_allowed` and every unsafe attribute or style."""
    for child in list(element):
        if not isinstance(child.tag, str) or not _allowed(child):  # a comment or processing instruction too
            element.remove(child)
        else:
            _clean(child)
    for name, value in list(element.attrib.items()):
        ns, local = _split(name)
        link = local == "href" and ns in ("", XLINK)
        if (local.lower().startswith("on") or (link and not SAFE_LINK.match(value)) or UNSAFE_STYLE.search(value)
                or ns not in ("", XLINK, "http://www.w3.org/XML/1998/namespace", *METADATA)):
            del element.attrib[name]
    if _split(element.tag)[1] == "style" and element.text and UNSAFE_STYLE.search(element.text):
        element.text = ""


def safe_svg(data: bytes) -> Optional[bytes]:
    """The SVG `data` with nothing that runs or fetches (see the module docstring); None if it is not
    an SVG document this can read."""
    if len(data) > MAX_SVG_BYTES:
        return None
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, ValueError, RecursionError):
        return None
    if root.tag != f"{{{SVG}}}svg":
        return None
    _clean(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False)


def publish(source: Path, target: Path) -> bool:
    """Copy figure file `source` to `target` as the site may serve it; False if it is not published (an
    SVG that cannot be read, a "PNG" that is not one, a file larger than the bound)."""
    if source.suffix == ".svg":
        if source.stat().st_size > MAX_SVG_BYTES:
            return False
        cleaned = safe_svg(source.read_bytes())
        if cleaned is None:
            return False
        with outfile.written(target) as tmp:
            tmp.write_bytes(cleaned)
        return True
    if source.suffix == ".png":
        with open(source, "rb") as f:
            if f.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
                return False
    with outfile.written(target) as tmp:
        tmp.write_bytes(source.read_bytes())  # (shutil's copy names the source in a failed write's error)
    return True
