"""The one typesetter of every report: a :class:`~analysis.content.Document` to a PDF,
through Typst.

The blocks are written as JSON beside one template (``templates/report.typ``) and each
figure as a PDF file; Typst lays them out — pagination, page numbers ``page k of N``, the
contents with the page of every heading, tables split over pages with their header
repeated and kept inside the margins — and the PDF is renamed into place only when the
compile succeeds (atomic). Strings reach Typst as JSON values, never as markup, so no text
needs escaping. The fonts are the DejaVu faces matplotlib ships, the same as the figures',
and no system font is read: a report looks the same on every machine.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Any

import matplotlib
import typst

from analysis.content import Block, Document, Plot
from sims.core.errors import SlicelabError

TEMPLATE = "templates/report.typ"
"""The layout, in this package."""


def _font_paths() -> list[str]:
    return [str(Path(matplotlib.get_data_path()) / "fonts" / "ttf")]


def _plain(block: Block, figure_file: str | None = None) -> dict[str, Any]:
    """A block as a JSON object: its fields, ``kind`` (its class, lower case) and, for a
    figure, the file it was saved to instead of the figure."""
    data: dict[str, Any] = {"kind": type(block).__name__.lower()}
    for f in dataclasses.fields(block):
        if f.name == "figure":
            continue
        value = getattr(block, f.name)
        if f.name == "headings":
            value = [_plain(h) for h in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    if figure_file is not None:
        data["file"] = figure_file
    return data


def write_json(doc: Document, folder: Path) -> Path:
    """Write ``doc.json`` and the figures of ``doc`` into ``folder``; return the JSON."""
    plain = []
    for k, block in enumerate(doc.blocks):
        name = None
        if isinstance(block, Plot):
            name = f"figure-{k:04d}.pdf"
            block.figure.savefig(folder / name, format="pdf")
        plain.append(_plain(block, name))
    path = folder / "doc.json"
    path.write_text(json.dumps({"title": doc.title, "footer": doc.footer, "blocks": plain}))
    return path


def typeset(doc: Document, path: str | Path) -> Path:
    """Lay out ``doc`` and write it to ``path`` (its folder created) atomically.

    Raises
    ------
    SlicelabError
        When Typst cannot lay the document out (a bug of the report, named with Typst's
        message).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="slicelab-typeset-") as tmp:
        folder = Path(tmp)
        write_json(doc, folder)
        main = folder / "report.typ"
        main.write_text(files("analysis").joinpath(TEMPLATE).read_text())
        out = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            typst.compile(str(main), output=str(out), root=str(folder),
                          font_paths=_font_paths(), ignore_system_fonts=True)  # fmt: skip
            os.replace(out, path)
        except RuntimeError as exc:
            raise SlicelabError(f"the report could not be laid out: {exc}") from exc
        finally:
            out.unlink(missing_ok=True)
    return path
