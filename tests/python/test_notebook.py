"""The report in a notebook: what Jupyter does with `report` as a cell's last line.

Jupyter (IPython's display formatter) calls `_repr_html_()` and puts the string into the page; this
test does the same and reads the page back as a browser would: the iframe's srcdoc, unescaped, is the
self-contained HTML report of the same analysis.
"""

import html.parser
import unittest

import ampprof
from support import TraceTestCase


class IframeReader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.iframes = []

    def handle_starttag(self, tag, attrs):
        if tag == "iframe":
            self.iframes.append(dict(attrs))


def display_html(obj) -> str:
    """IPython.core.formatters.HTMLFormatter's rule: the object's _repr_html_, when it has one."""
    method = getattr(obj, "_repr_html_", None)
    if method is None:
        raise AssertionError(f"{type(obj).__name__} has no HTML representation")
    return method()


class NotebookTest(TraceTestCase):
    def test_the_cell_shows_the_html_report(self):
        report = ampprof.analyze(self.amp_trace)
        reader = IframeReader()
        reader.feed(display_html(report))
        (iframe,) = reader.iframes
        page = iframe["srcdoc"]  # HTMLParser unescapes attribute values, as the browser does
        self.assertEqual(page, report.html)
        self.assertTrue(page.lstrip().lower().startswith("<!doctype html"))
        for finding in report.findings:
            self.assertIn(finding.id, page)
        self.assertNotIn('src="http', page, "self-contained: nothing fetched from the network")

    def test_text_repr_states_the_verdict(self):
        report = ampprof.analyze(self.amp_trace)
        self.assertIn(report.reports[0].verdict["text"], repr(report))


if __name__ == "__main__":
    unittest.main()
