"""The balance report of a dataset, as a PDF, assembled from its game's sections.

The report of a study's game is the ``REPORT`` (:class:`~analysis.sections.GameReport`)
of ``analysis/<game>/report.py`` (or of ``analysis/<game>/__init__.py``), found by name
(:func:`game_report`): the study blocks it reads, its verdicts, its sections, its
provenance text and its glossary terms. A game without one gets the generic sections of
:mod:`analysis.sections` (seats, player count, ratings, sample size), which read only the
core schema.

:func:`compute` runs every section's analyses once (:class:`Results`), :func:`summary`
condenses them to one row per headline number, :func:`layout` lays out every page and
:func:`write_report` writes them. The pages, each numbered ``page k of N``:

1. the verdicts (:class:`~analysis.sections.Verdict`: question, answer, estimate with its
   interval, sample, robustness, recommendation, the page with the evidence) and the
   command that regenerates the report; a game without verdicts gets the table of every
   headline number here instead;
2. the contents, with the first page of every section and appendix;
3. about this study: provenance, study blocks, the game's notes;
4. the glossary (:data:`GLOSSARY` merged with the game's own terms);
5. the sections' pages, each with its figures, key numbers and sentences of
   interpretation computed from the numbers they state;
6. the appendices: every headline number (when page 1 has verdicts), then each section's
   dense tables.
"""

from __future__ import annotations

import shlex
import tomllib
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from analysis.load import IncompleteDatasetWarning, manifest, study_game
from analysis.pdf import (
    A4,
    BOTTOM,
    LEFT,
    RIGHT,
    TOP,
    Pages,
    _row_height,
    _wrap_row,
    clear_footer,
    document,
    footer,
    line_height,
    page,
    para,
    table,
    table_pages,
    text_width,
    wrap,
)
from analysis.sections import (
    GENERIC_SECTIONS,
    HEADLINES_APPENDIX,
    GameReport,
    Results,
    Row,
    Section,
    Verdict,
    appendix_labels,
)
from sims import dataset
from sims.core.errors import SlicelabError
from sims.core.game import get_game

__all__ = ["GLOSSARY", "GameReport", "Results", "Section", "Verdict", "check_dataset",
           "compute", "game_report", "glossary", "layout", "regenerate_command", "summary",
           "write_report"]  # fmt: skip

GLOSSARY: dict[str, str] = {
    "pp (percentage points)": "The difference between two win shares, in points of "
    "percentage: a seat that wins 27% of games where the fair share is 25% is +2 pp "
    "ahead (not 8%).",
    "win share": "The share of games a seat or strategy wins; a win shared by k players "
    "counts 1/k to each.",
    "fair share": "1/n at n players: the win share every seat would have if the game gave "
    "no seat an advantage.",
    "95% CI (95% interval)": "Written estimate [low, high]: the values the data cannot rule "
    "out, at the 95% level. When it covers 0 the data cannot tell the sign of the effect; "
    "more games narrow it (about 4 times the games halve it).",
    "paired / clustered interval": "Paired: both sides of a comparison are played on the "
    "same deals, so the luck of the deal cancels and the interval is computed over "
    "per-deal differences. Clustered: several numbers from one game are not independent "
    "(its seats share the deal), so the interval treats the game, not the seat, as the "
    "unit.",
    "n and its unit": "The number of independent units behind an estimate, with what they "
    "are: games, deals (one deal replayed under several conditions counts once), "
    "decisions, pairs. An interval's width depends on n, not on how many rows were read.",
    "Holm (Holm–Bonferroni)": "A correction for testing many things at once (every "
    "component at a player count): 'Holm-significant' means the effect stays significant "
    "at the 5% level once all the tests of its table are counted.",
    "field": "Who the other seats are: one strategy (with its parameters) playing every "
    "seat but the one studied. Every verdict describes games among the players of its "
    "field; a field of weak players describes weak players' games.",
    "exploitability": "How much one seat gains, over the fair share, by the best deviation "
    "found against a field (pp). A field with low exploitability plays close to an "
    "equilibrium: no single player gains by changing style.",
    "θ (theta)": "A strategy's decision threshold, swept over a grid by the study: the "
    "strategy takes an option only when its value exceeds θ times the alternative's, so "
    "a larger θ takes it less often. The best θ is the one that wins most against the "
    "field.",
    "restricted-play value": "What having an option is worth: the win share of a seat that "
    "may use it minus that of a seat that never takes or uses it, on the same deals "
    "against the same field, from every seat in turn.",
    "own points": "The points a component scores for its holder by itself: the finished "
    "game re-scored without it, everything else fixed. It ignores what the holder gave "
    "up to get it.",
    "value to the taker": "The same deals replayed with a component replaced by a blank: "
    "the holder's win share in the real game minus in the replay. It includes what "
    "players pay to get the component, so a strong component players overpay for can "
    "come out negative.",
    "robust": "A verdict whose interval excludes 0 with the same sign under every "
    "condition the study checked (other fields of players, other plausible components). "
    "'not robust: …' names the condition where the sign differs or the interval covers "
    "0; 'not checked' means no other condition was run.",
    "Elo / Plackett–Luce rating": "A strategy's strength fitted from whole-table finishing "
    "orders (Plackett–Luce extends Bradley–Terry's pairs to a ranking of every seat), on "
    "the Elo scale: 400 points apart means 10:1 odds of finishing ahead; centred on the "
    "mean strategy.",
}
"""The generic glossary: terms every report may use (a game adds or replaces entries in
:attr:`GameReport.glossary`)."""

CLI_OPTIONS = {"payoff_games": "--payoff-games"}
"""Report options the ``slicelab report`` command takes, with their flags."""


def game_report(game: str) -> GameReport:
    """The report ``game`` declares (``REPORT`` in ``analysis/<game>/report.py`` or
    ``analysis/<game>/__init__.py``), else the generic one."""
    for name in (f"analysis.{game}.report", f"analysis.{game}"):
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                continue  # no such module: try the next place
            raise
        found = getattr(module, "REPORT", None)
        if isinstance(found, GameReport):
            return found
    return GameReport(sections=tuple(make() for make in GENERIC_SECTIONS))


def check_dataset(out: str | Path) -> None:
    """Refuse a dataset the report cannot read, naming what is missing.

    Raises
    ------
    SlicelabError
        When ``out`` is not a complete dataset of a study with the blocks its game's
        report reads.
    """
    with warnings.catch_warnings():  # an incomplete dataset is refused below, after blocks
        warnings.simplefilter("ignore", IncompleteDatasetWarning)
        m = manifest(out, partial=True)
    game = study_game(m)
    report = game_report(game)
    have = {a.get("group", a["name"]) for a in m["study"]["arms"]}
    missing = [b for b in report.blocks if b not in have]
    if missing:
        example = f" (e.g. {report.example})" if report.example else ""
        raise SlicelabError(
            f"{out} lacks the study blocks {missing} the {get_game(game).info.title} report "
            f"reads; run a study with them{example}"
        )
    if not m.get("complete"):
        raise SlicelabError(
            f"{out} is not complete; resume it (slicelab study {m.get('study_file')} --out "
            f"{out}) before reporting"
        )


def compute(out: str | Path, **options: Any) -> Results:
    """Run every analysis of the report of a dataset's game.

    Parameters
    ----------
    out : path
        The dataset directory.
    **options
        The game's report options (:attr:`GameReport.options`: for New York Slice
        ``payoff_games``, the games per player count whose eat-or-collect decisions are
        replayed both ways, and ``n_boot``, the bootstrap resamples for the best θ);
        options the game's report does not read are ignored.
    """
    out = Path(out)
    with dataset.held(out):  # checked once, then read some 150 times
        m = manifest(out)
        game = study_game(m)
        report = game_report(game)
        r = Results(out=out, manifest=m, game=game, report=report,
                    options={**report.options, **options})  # fmt: skip
        for section in report.sections:
            r.tables.update(section.compute(r))
    return r


def summary(r: Results) -> pl.DataFrame:
    """One row per headline number: ``question, finding, estimate, games, warning, unit``
    (``games`` is the row's n, counted in ``unit``)."""
    rows: list[Row] = []
    for num, section in enumerate(r.report.sections, 1):
        if section.headlines is not None:
            rows += section.headlines(r, f"{num} {section.label}", list(rows))
    rows = [{"unit": "games", **row} for row in rows]
    return pl.DataFrame(rows, schema={"question": pl.String, "finding": pl.String,
                                      "estimate": pl.String, "games": pl.Int64,
                                      "warning": pl.String, "unit": pl.String})  # fmt: skip


def glossary(report: GameReport) -> dict[str, str]:
    """The glossary of a report: :data:`GLOSSARY` with the game's own entries added (an
    entry of the same term replaces the generic one), in alphabetical order."""

    def key(term: str) -> str:
        t = term.lower().replace("θ", "theta")
        return "".join(c for c in t if c.isalnum() or c == " ").strip()

    return dict(sorted({**GLOSSARY, **report.glossary}.items(), key=lambda kv: key(kv[0])))


def regenerate_command(r: Results, pdf_path: str | Path) -> str:
    """The ``slicelab report`` command that rebuilds this report: from the study file
    (which resumes the dataset, playing nothing when it is complete) with its size, its
    dataset directory and the report options the command line takes (from the dataset
    when the study was not read from a file); options it does not take and that differ
    from the game's defaults are named after it."""
    m = r.manifest
    study_file = m.get("study_file")
    if study_file and str(study_file).endswith(".toml"):  # not a study made in code
        args = ["slicelab", "report", str(study_file)]
        size = m.get("size") or _size_of(m)
        if size:
            args += ["--size", str(size)]
        if Path(r.out) != Path("data") / str(m.get("study_name")):
            args += ["--data", str(r.out)]
    else:
        args = ["slicelab", "report", str(r.out)]
    args += ["--out", str(pdf_path)]
    read = r.report.options  # the options the game's report reads, with their defaults
    for option, flag in CLI_OPTIONS.items():
        if option in read and option in r.options:
            args += [flag, str(r.options[option])]
    command = shlex.join(args)
    fixed = [f"{k}={r.options[k]}" for k in read
             if k not in CLI_OPTIONS and k in r.options and r.options[k] != read[k]]  # fmt: skip
    if fixed:
        command += f"  (with {', '.join(fixed)}: options of analysis.report.write_report)"
    return command


def _size_of(m: dict) -> str | None:
    """The size a dataset was run at, when its manifest does not say: the one whose
    suffix its study's name carries (``nyslice-balance-quick``)."""
    try:
        data = tomllib.loads(m.get("study_text") or "")
    except tomllib.TOMLDecodeError:
        return None
    sizes = data.get("sizes")
    found = [s for s in (sizes if isinstance(sizes, dict) else {})
             if m.get("study_name") == f"{data.get('name')}-{s}"]  # fmt: skip
    return found[0] if found else None


def _blocks(study: dict) -> dict[str, list]:
    """Per study block: arms, games and player counts."""
    blocks: dict[str, list] = {}
    for a in study["arms"]:
        b = blocks.setdefault(a.get("group", a["name"]), [0, 0, set()])
        b[0] += 1
        b[1] += a["games"]
        b[2].add(a["players"])
    return blocks


def _default_provenance(m: dict) -> list[tuple[str, str]]:
    fps = list(m["fingerprints"].values())
    fp = fps[0] if fps else {}
    variants = sorted({f.get("variant_id", "?") for f in fps})
    return [("Rules", f"{fp.get('rules_version', '?')}; variants: {', '.join(variants) or '?'}")]


def _title(r: Results) -> str:
    return r.report.title or get_game(r.game).info.title


# ----------------------------------------------------------------------------- page 1

GREEN, RED, AMBER, GREY = "#2e7d32", "#c62828", "#b26a00", "#6d6d6d"


def robustness_colour(label: str) -> str:
    """The colour of a robustness tag: green for ``robust``, red for ``not robust…``,
    amber for ``not fully checked``, grey for anything else (``not checked``)."""
    t = label.strip().lower()
    if t.startswith("robust"):
        return GREEN
    if t.startswith("not robust"):
        return RED
    if t.startswith("not fully"):
        return AMBER
    return GREY


def _front_header(fig: Figure, r: Results, what: str) -> float:
    """Page 1's header: the game's title, the report's subtitle, the study in one line and
    what the page holds. Returns the height below it."""
    m = r.manifest
    study = m["study"]
    title = _title(r)
    size = 24.0
    while size > 12 and text_width(title, size, "bold") > RIGHT - LEFT:
        size -= 1
    fig.text(LEFT, 0.962, title, fontsize=size, weight="bold", va="top")
    y = 0.962 - line_height(size, 1.2)
    fig.text(LEFT, y, f"{r.report.subtitle} — {what}", fontsize=13, va="top")
    y -= line_height(13, 1.3)
    blocks = _blocks(study)
    where = m.get("study_file") or str(r.out)
    size_ = f", size {m['size']}" if m.get("size") else ""
    line = (f"Study {m['study_name']} ({where}{size_}) · "
            f"{sum(b[1] for b in blocks.values()):,} simulated games in {len(study['arms'])} "
            f"arms · dataset written {str(m.get('created', '?'))[:10]}")  # fmt: skip
    return para(fig, y, line, 8.5, color="#444444") - 0.004


def _command_footer(fig: Figure, command: str) -> float:
    """The command that regenerates the report, at the bottom of page 1. Returns the
    height above it (where the page's content must stop)."""
    size = 7.5
    lines = wrap(command, RIGHT - LEFT, size, family="monospace")
    h = len(lines) * line_height(size, 1.3)
    y = BOTTOM + 0.006 + h
    fig.text(LEFT, y, "\n".join(lines), fontsize=size, family="monospace", va="top",
             linespacing=1.3)  # fmt: skip
    y += 0.004
    fig.text(LEFT, y, "Regenerate this report:", fontsize=7.5, weight="bold", va="bottom")
    y += line_height(7.5) + 0.004
    fig.lines.append(Line2D([LEFT, RIGHT], [y, y], transform=fig.transFigure, lw=0.5,
                            color="#999999"))  # fmt: skip
    return y + 0.01


LABEL_W = 0.16
"""Width of the label column of a verdict block (figure fraction)."""


def _verdict_block(
    fig: Figure | None, y: float, k: int, v: Verdict, scale: float, ref: str
) -> float:
    """Draw verdict ``k`` from height ``y`` (only measure it when ``fig`` is None): the
    question with the page of its evidence (``ref``) at the right, the answer, then
    labelled rows (estimate with its sample, robustness tag with its detail,
    recommendation), a stripe in the robustness colour at the left. Returns the height
    below it."""
    x0, top = LEFT + 0.02, y
    vx = x0 + LABEL_W
    qs, s, ls = 11 * scale, 9 * scale, 7.8 * scale
    colour = robustness_colour(v.robustness)

    def text(x: float, y: float, lines: list[str], size: float, **kw: Any) -> float:
        if fig is not None and lines:
            fig.text(x, y, "\n".join(lines), fontsize=size, va="top", linespacing=1.3, **kw)
        return len(lines) * line_height(size, 1.3)

    def row(label: str, value: str, **kw: Any) -> None:
        nonlocal y
        h = text(vx, y, wrap(value, RIGHT - vx, s, kw.get("weight", "normal")), s, **kw)
        text(x0, y + 0.0006, [label], ls, weight="bold", color="#555555")
        y -= max(h, line_height(ls, 1.3)) + 0.003 * scale

    room = RIGHT - x0 - (text_width(ref, ls) + 0.02 if ref else 0)
    if ref:
        drop = 0.8 * (qs - ls) / 72 / A4[1]  # the reference's baseline on the question's
        text(RIGHT, y - drop, [ref], ls, ha="right", color="#555555")
    y -= text(x0, y, wrap(f"{k}. {v.question}", room, qs, "bold"), qs,
              weight="bold") + 0.003 * scale  # fmt: skip
    y -= text(x0, y, wrap(v.answer, RIGHT - x0, s), s) + 0.005 * scale
    row("Estimate [95% CI]", f"{v.estimate or '—'};  n = {v.n:,} {v.n_unit}")
    # robustness: a coloured tag, its detail to its right (or under it when the tag is long)
    pad = 0.3 * ls / 72
    padx, pady = pad / A4[0], pad / A4[1]
    tag = wrap(v.robustness or "not checked", RIGHT - vx - 2 * padx, ls, "bold")
    tag_w = max(text_width(t, ls, "bold") for t in tag) + 2 * padx
    tag_h = len(tag) * line_height(ls, 1.3) + 2 * pady
    text(x0, y - pady, ["Robustness"], ls, weight="bold", color="#555555")
    if fig is not None:
        fig.patches.append(Rectangle((vx, y - tag_h), tag_w, tag_h, transform=fig.transFigure,
                                     color=colour, zorder=0))  # fmt: skip
    text(vx + padx, y - pady, tag, ls, weight="bold", color="white")
    h = tag_h
    if v.detail:
        dx = vx + tag_w + 0.012
        if RIGHT - dx >= 0.3:
            h = max(h, text(dx, y - pady, wrap(v.detail, RIGHT - dx, s * 0.95), s * 0.95))
        else:
            h += 0.004 + text(vx, y - tag_h - 0.004, wrap(v.detail, RIGHT - vx, s * 0.95),
                              s * 0.95)  # fmt: skip
    y -= h + 0.005 * scale
    if v.recommendation:
        row("Recommendation", v.recommendation, weight="bold", color="#1a1a1a")
    if fig is not None:
        fig.patches.append(Rectangle((LEFT, y), 0.006, top - y, transform=fig.transFigure,
                                     color=colour, zorder=0))  # fmt: skip
    return y


def _verdict_refs(r: Results, v: Verdict, starts: dict[str, tuple[int, int]] | None) -> str:
    if not v.section:
        return ""
    if starts is None:  # measuring: the longest a reference can be
        return max("see section 99, page 999", f"see {v.section}", key=len)
    if v.section in starts:
        num, first = starts[v.section]
        return f"see section {num}, page {first}"
    return f"see {v.section}"


def _verdict_pages(
    r: Results, verdicts: list[Verdict], command: str,
    starts: dict[str, tuple[int, int]] | None, glossary_page: int | None,
) -> list[Figure]:  # fmt: skip
    """Page 1 (and, when the verdicts do not fit at the smallest type size, the pages
    after it): one block per verdict, the regenerating command at the bottom."""
    fig = page()
    y = _front_header(fig, r, "verdicts")
    see = f" (page {glossary_page})" if glossary_page else ""
    y = para(fig, y, "Each answer is computed from this study's numbers, with its 95% "
             "interval, its sample, whether it holds under every condition the study checked "
             f"(robustness) and the page with the evidence. Terms: glossary{see}.",
             8.5)  # fmt: skip
    floor = _command_footer(fig, command)
    refs = [_verdict_refs(r, v, starts) for v in verdicts]
    widest = [_verdict_refs(r, v, None) for v in verdicts]
    gap = 0.014

    def heights(scale: float) -> list[float]:
        return [1 - _verdict_block(None, 1.0, k, v, scale, ref)
                for k, (v, ref) in enumerate(zip(verdicts, widest, strict=True), 1)]  # fmt: skip

    for scale in (1.0, 0.93, 0.86, 0.8):  # the largest type that fits on page 1
        h = heights(scale)
        if sum(h) + gap * scale * max(len(h) - 1, 0) <= y - floor:
            break
    else:  # too many to fit: the verdicts go on over the next pages, in readable type
        scale = 0.9
        h = heights(scale)
    pages = [fig]
    for k, (v, ref, height) in enumerate(zip(verdicts, refs, h, strict=True), 1):
        if y - height < floor and y < 0.8:  # does not fit under the blocks above: a new page
            fig = page("Verdicts (continued)")
            pages.append(fig)
            y, floor = TOP, BOTTOM + 0.01
        y = _verdict_block(fig, y, k, v, scale, ref) - gap * scale
    if not verdicts:
        para(fig, y, "The game's report states no verdict for this study.", 9)
    return pages


def _headline_frame(headlines: pl.DataFrame) -> pl.DataFrame:
    return headlines.select(
        pl.col("question").alias("section"), "finding", "estimate",
        pl.when(pl.col("games") > 0)
        .then(pl.format("{} {}", pl.col("games"), pl.col("unit")))
        .alias("n (unit)"), "warning",
    )  # fmt: skip


HEADLINE_WIDTHS = [0.1, 0.33, 0.2, 0.07, 0.22]


def _headline_intro(r: Results) -> str:
    where = [i for i, s in enumerate(r.report.sections, 1) if s.label == "Sample size"]
    see = f" (section {where[0]})" if where else ""
    return ("One line per headline number. Estimates are differences in win share "
            "(percentage points) unless marked, with 95% intervals. 'warning' marks a number "
            f"too small to support its claim{see}; — marks an empty cell.")  # fmt: skip


def _summary_pages(r: Results, headlines: pl.DataFrame, command: str) -> list[Figure]:
    """Page 1 of a report without verdicts: every headline number, the command at the
    bottom."""
    fig = page()
    y = _front_header(fig, r, "every headline number")
    floor = _command_footer(fig, command)
    return table_pages("Every headline number", _headline_frame(headlines), HEADLINE_WIDTHS,
                       size=6.5, x=0.04, intro=_headline_intro(r), first=fig, y=y,
                       bottom=floor)  # fmt: skip


# ----------------------------------------------------------------------------- front matter


@dataclass(frozen=True)
class Entry:
    """A line of the contents: its text, its level (0: a section or part, 1: a page in
    it, -1: a caption without a page) and the page it starts on."""

    text: str
    level: int
    page: int | None


def _contents_pages(entries: list[Entry]) -> list[Figure]:
    """The contents: each entry, dotted leaders, its page number at the right margin."""
    title = "Contents"
    fig = page(title)
    pages = [fig]
    y = TOP
    for e in entries:
        size = 10.5 if e.level <= 0 else 9
        weight = "bold" if e.level < 0 else "normal"
        x = LEFT + (0.03 if e.level > 0 else 0)
        h = line_height(size, 1.6)
        if e.level < 0:
            h += 0.008
        if y - h < BOTTOM + 0.01:
            fig = page(f"{title} (continued)")
            pages.append(fig)
            y = TOP
        if e.level < 0:
            y -= 0.008
        lines = wrap(e.text, RIGHT - x - 0.09, size, weight)
        text = lines[0] + ("…" if len(lines) > 1 else "")
        fig.text(x, y, text, fontsize=size, weight=weight, va="top")
        if e.page is not None:
            number = str(e.page)
            fig.text(RIGHT, y, number, fontsize=size, va="top", ha="right")
            start = x + text_width(text, size, weight) + 0.012
            end = RIGHT - text_width(number, size) - 0.012
            base = y - 0.75 * size / 72 / A4[1]
            if end > start:
                fig.lines.append(Line2D([start, end], [base, base], transform=fig.transFigure,
                                        lw=0.8, ls=(0, (1, 3)), color="#888888"))  # fmt: skip
        y -= h
    return pages


def _about_pages(r: Results, command: str) -> list[Figure]:
    """About this study: provenance, the study blocks and the game's notes."""
    m = r.manifest
    study = m["study"]
    report = r.report
    title = "About this study"
    fig = page(title)
    pages = [fig]
    fig.text(LEFT, TOP, "slicelab — simulated games, effects with 95% intervals",
             fontsize=10, style="italic", va="top")  # fmt: skip
    blocks = _blocks(study)
    game_rows = (report.provenance or _default_provenance)(m)
    prov = [
        ("Game", _title(r)),
        ("Study", f"{m['study_name']}  ({m['study_file']})"),
        ("Study hash", m["study_hash"]),
        ("Seed", str(study["seed"])),
        ("Games", f"{sum(b[1] for b in blocks.values()):,} in {len(study['arms'])} arms"),
        ("Code version", m["code_version"]),
        ("Engines", ", ".join(sorted(set(m["engines"].values())))),
        *game_rows,
        ("Data", str(r.out)),
        ("Dataset written", f"{m['created']} (complete: {m['complete']})"),
        ("Report built", datetime.now(UTC).isoformat(timespec="seconds")),
        ("Regenerate", command),
    ]
    y = TOP - 0.04
    for k, v in prov:
        fig.text(LEFT, y, k, fontsize=9.5, weight="bold", va="top")
        lines = wrap(v, RIGHT - 0.26, 9.5, family="monospace")
        fig.text(0.26, y, "\n".join(lines), fontsize=9.5, va="top", family="monospace")
        y -= 0.022 * len(lines)
    y -= 0.015
    fig.text(LEFT, y, "Study blocks", fontsize=11, weight="bold", va="top")
    y -= 0.03
    frame = pl.DataFrame(
        [
            {"block": g, "arms": b[0], "games": f"{b[1]:,}",
             "player counts": ", ".join(map(str, sorted(b[2])))}
            for g, b in blocks.items()
        ]
    )  # fmt: skip
    widths = [0.3, 0.12, 0.2, 0.26]
    while True:  # the rows that fit, then (too many blocks for a page) the rest on the next
        k = frame.height
        while k > 1 and y - _table_height(frame.head(k), widths, 8.5) < BOTTOM + 0.01:
            k -= 1
        y = table(fig, y, frame.head(k), widths, size=8.5)
        frame = frame.slice(k)
        if frame.is_empty():
            break
        fig = page(f"{title} (continued)")
        pages.append(fig)
        y = TOP
    for text in report.notes(r) if report.notes else []:
        lines = wrap(text, RIGHT - LEFT, 9)
        if y - len(lines) * line_height(9) < BOTTOM + 0.01:
            fig = page(f"{title} (continued)")
            pages.append(fig)
            y = TOP
        y = para(fig, y, text, 9)
    return pages


def _table_height(frame: pl.DataFrame, widths: list[float], size: float) -> float:
    """The height :func:`~analysis.pdf.table` needs for ``frame``, header included."""
    rows = [frame.columns, *frame.iter_rows()]
    return sum(_row_height(_wrap_row(row, widths, size, k == 0), size)
               for k, row in enumerate(rows)) + 0.015  # fmt: skip


def _glossary_pages(terms: dict[str, str]) -> list[Figure]:
    """The glossary: each term in bold, its definition beside it."""
    title = "Glossary"
    fig = page(title)
    pages = [fig]
    y = para(fig, TOP, "The terms of this report, generic and the game's own.", 9,
             color="#444444")  # fmt: skip
    tx, dx, size = LEFT, LEFT + 0.22, 9
    for term, definition in terms.items():
        t = wrap(term, dx - tx - 0.015, size, "bold")
        d = wrap(definition, RIGHT - dx, size)
        h = max(len(t), len(d)) * line_height(size, 1.3) + 0.012
        if y - h < BOTTOM + 0.01:
            fig = page(f"{title} (continued)")
            pages.append(fig)
            y = TOP
        fig.text(tx, y, "\n".join(t), fontsize=size, weight="bold", va="top", linespacing=1.3)
        fig.text(dx, y, "\n".join(d), fontsize=size, va="top", linespacing=1.3)
        y -= h
    return pages


# ----------------------------------------------------------------------------- layout


@dataclass
class _Part:
    """Consecutive pages of the report: what the contents calls them and their figures."""

    text: str
    figures: list[Figure]
    kind: str = "front"  # front, section, appendix
    label: str = ""
    number: int = 0


def _page_label(fig: Figure) -> str:
    return fig.get_label() or ""


def _entries(parts: list[_Part], starts: list[int]) -> list[Entry]:
    out: list[Entry] = []
    captioned = False
    for part, start in zip(parts, starts, strict=True):
        if not part.figures:
            continue
        if part.kind == "appendix" and not captioned:
            out.append(Entry("Appendices", -1, None))
            captioned = True
        out.append(Entry(part.text, 0, start))
        if part.kind == "section":
            seen = {part.text}
            for k, fig in enumerate(part.figures[1:], 1):
                label = _page_label(fig)
                if label and label not in seen and not label.endswith("(continued)"):
                    out.append(Entry(label, 1, start + k))
                    seen.add(label)
    return out


def layout(
    r: Results, pdf_path: str | Path = "report.pdf", command: str | None = None
) -> list[Figure]:
    """Every page of the report, in order, numbered ``page k of N``.

    The sections and appendices are drawn first (into :class:`~analysis.pdf.Pages`), so
    that the page count is known when page 1 (its references) and the contents are
    drawn.

    Parameters
    ----------
    r : Results
        The computed analyses.
    pdf_path : path
        Where the report is to be written (named in the regenerating command).
    command : str, optional
        The command that regenerates the report (default: :func:`regenerate_command`).
    """
    report = r.report
    headlines = summary(r)
    command = command or regenerate_command(r, pdf_path)
    verdicts = report.verdicts(r) if report.verdicts is not None else None
    labels = appendix_labels(report)

    body: list[_Part] = []
    for num, section in enumerate(report.sections, 1):
        sink = Pages()
        section.draw(sink, r, num)
        first = _page_label(sink.figures[0]) if sink.figures else ""
        body.append(_Part(first or f"{num}  {section.label}", sink.figures, "section",
                          section.label, num))  # fmt: skip
    if verdicts is not None:
        name = f"{labels[HEADLINES_APPENDIX]} — {HEADLINES_APPENDIX}"
        figs = table_pages(name, _headline_frame(headlines), HEADLINE_WIDTHS, size=6.5,
                           x=0.04, intro=_headline_intro(r))  # fmt: skip
        body.append(_Part(name, figs, "appendix", HEADLINES_APPENDIX))
    for section in report.sections:
        if section.appendix is not None:
            sink = Pages()
            section.appendix(sink, r, labels[section.label])
            first = _page_label(sink.figures[0]) if sink.figures else ""
            body.append(_Part(first or f"{labels[section.label]} — {section.label}",
                              sink.figures, "appendix", section.label))  # fmt: skip
    terms = glossary(report)
    about = _about_pages(r, command)
    gloss = _glossary_pages(terms)

    def front(starts: list[int] | None) -> tuple[list[Figure], list[Figure]]:
        if starts is None:
            refs, glossary_page, entries = None, None, None
        else:
            refs = {p.label: (p.number, s) for p, s in zip(parts, starts, strict=True)
                    if p.kind == "section" and p.figures}  # fmt: skip
            glossary_page = starts[3]
            entries = _entries(parts, starts)
        first = (_verdict_pages(r, verdicts, command, refs, glossary_page)
                 if verdicts is not None else _summary_pages(r, headlines, command))  # fmt: skip
        if entries is None:  # counting: page numbers do not change how many pages
            entries = _entries(parts, [0] * len(parts))
        return first, _contents_pages(entries)

    first_name = "Verdicts" if verdicts is not None else "Every headline number"
    parts = [_Part(first_name, []), _Part("Contents", []), _Part("About this study", about),
             _Part("Glossary", gloss), *body]  # fmt: skip
    for _ in range(3):  # the front pages' count, then their numbers
        starts, k = [], 1
        for p in parts:
            starts.append(k)
            k += len(p.figures)
        first, contents = front(starts if parts[0].figures else None)
        settled = (len(first), len(contents)) == (len(parts[0].figures), len(parts[1].figures))
        parts[0].figures, parts[1].figures = first, contents
        if settled:
            break
    figures = [f for p in parts for f in p.figures]
    name = f"{_title(r)} — {r.manifest['study_name']}"
    for k, fig in enumerate(figures, 1):
        clear_footer(fig)
        footer(fig, k, len(figures), name)
    return figures


def write_report(
    out: str | Path,
    pdf_path: str | Path,
    results: Results | None = None,
    command: str | None = None,
    **options: Any,
) -> Path:
    """Compute every analysis of a dataset's report and write the PDF atomically.

    Parameters
    ----------
    out : path
        The dataset directory (its study must hold the blocks its game's report reads:
        :func:`check_dataset`).
    pdf_path : path
        Where to write the PDF; its directory is created.
    results : Results, optional
        Already computed analyses of ``out`` (skips :func:`compute`).
    command : str, optional
        The command that regenerates the report, printed on page 1 (default:
        :func:`regenerate_command`).
    **options
        The game's report options (see :func:`compute`).

    Returns
    -------
    Path
        ``pdf_path``.
    """
    with dataset.held(out):  # the layout reads the dataset too
        r = results or compute(out, **options)
        figures = layout(r, pdf_path, command)
    with document(pdf_path, f"{_title(r)} balance — {r.manifest['study_name']}") as pdf:
        for fig in figures:
            pdf.savefig(fig)
    return Path(pdf_path)
