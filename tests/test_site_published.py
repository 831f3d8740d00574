"""The report site publishes nothing that runs (issue 33): a figure's SVG, which anyone who can write
the results directory can replace, is rewritten without scripts, event handlers, HTML or outside links;
a "PNG" that is not one is not published, and the pages link only what was."""

from __future__ import annotations

import re

from matplotlib.figure import Figure

from pacesim import ENGINE_VERSION
from pacesim.site.pages import write_site
from pacesim.site.published import publish, safe_svg
from pacesim.site.record import Entry, Record, Run

HOSTILE = b"""<?xml version="1.0"?>
<?xml-stylesheet href="http://evil.example/x.xsl"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:h="http://www.w3.org/1999/xhtml" onload="alert(1)">
<script>alert(2)</script>
<h:script>alert(3)</h:script>
<foreignObject><h:iframe src="javascript:alert(4)"/></foreignObject>
<a xlink:href="javascript:alert(5)"><rect width="1" height="1"/></a>
<use href="http://evil.example/x.svg#a"/><use xlink:href="#kept"/>
<image xlink:href="data:image/svg+xml;base64,PHN2Zy8+"/><image xlink:href="data:image/png;base64,iVBORw0KGgo="/>
<style>@import url(http://evil.example/x.css); *{fill:red}</style>
<g style="fill:url(http://evil.example/#x)" clip-path="url(#c)"><path d="M0 0" onclick="alert(6)"/></g>
<animate attributeName="href" to="javascript:alert(7)"/><set attributeName="onload" to="alert(8)"/>
</svg>"""


def test_an_svg_keeps_its_drawing_and_nothing_that_runs():
    clean = safe_svg(HOSTILE).decode()
    for bad in ["script", "alert", "onload", "onclick", "javascript", "foreignObject", "evil.example", "<a ",
                "animate", "<set", "stylesheet", "svg+xml"]:
        assert bad not in clean, bad
    assert '<use xlink:href="#kept" />' in clean and 'clip-path="url(#c)"' in clean
    assert 'xlink:href="data:image/png;base64,iVBORw0KGgo="' in clean and '<path d="M0 0" />' in clean
    assert safe_svg(b"<html><script>alert(1)</script></html>") is None and safe_svg(b"not xml") is None


def test_a_css_escape_cannot_spell_an_import_or_a_url_past_the_filter():
    # An outside review's reproducer (issue 33): CSS reads the escape "\69" as "i" and "\75" as "u".
    for style in (rb"@\69mport 'http://evil.example/a.css';", rb"*{fill:\75rl(http://evil.example/#x)}"):
        clean = safe_svg(b'<svg xmlns="http://www.w3.org/2000/svg"><style>' + style + b'</style>'
                         b'<g style="' + style.replace(b"'", b"") + b'"/></svg>').decode()
        assert "evil.example" not in clean, clean


def test_matplotlibs_svg_is_published_whole(tmp_path):
    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([1, 2, 3], [3, 1, 2], marker="o", label="a < b & c")
    ax.imshow([[0, 1], [1, 0]], extent=(1, 2, 1, 2))
    ax.legend()
    fig.savefig(tmp_path / "f.svg")
    drawn = (tmp_path / "f.svg").read_text()
    assert publish(tmp_path / "f.svg", tmp_path / "out.svg")
    kept = (tmp_path / "out.svg").read_text()
    for element in ["path", "use", "image", "clipPath", "g"]:  # every element of the drawing is still there
        assert kept.count(f"<{element} ") + kept.count(f"<{element}>") == \
            drawn.count(f"<{element} ") + drawn.count(f"<{element}>"), element
    paths = [[" ".join(d.split()) for d in re.findall(r' d="([^"]+)"', text)] for text in (kept, drawn)]
    assert paths[0] == paths[1]  # the same shapes (XML reads a newline in an attribute as a space)


def test_the_site_links_only_what_it_published(tmp_path):
    made = tmp_path / "results" / "reproduce" / "E-fig3"
    made.mkdir(parents=True)
    (made / "E-fig3.png").write_text("<script>alert(1)</script>")  # not a PNG
    (made / "E-fig3.svg").write_bytes(HOSTILE)
    (made / "E-fig3.csv").write_text("x,y\n1,2\n")
    run = Run("E-fig3", 1, 1, 0, 0, [1], 1.0, [ENGINE_VERSION], ["c"], ["h"], ("", ""),
              [made / "E-fig3.png", made / "E-fig3.svg", made / "E-fig3.csv"], 1, 1.0, [])
    entry = Entry("E-fig3", "what", [("E-fig3", "setup")], "how", [], [run], [], None)
    record = Record(tmp_path / "results", [entry], ENGINE_VERSION, "now", False)
    pages = write_site(record, tmp_path / "site")
    figures = tmp_path / "site" / "figures" / "E-fig3"
    assert sorted(p.name for p in figures.iterdir()) == ["E-fig3.csv", "E-fig3.svg"]
    assert "script" not in (figures / "E-fig3.svg").read_text()
    paper = next(p for p in pages if p.name == "paper_e.html").read_text()
    assert "figures/E-fig3/E-fig3.csv" in paper and "E-fig3.png" not in paper
