"""The balance report of a dataset, as a PDF, assembled from its game's sections.

The report of a study's game is the ``REPORT`` (:class:`~analysis.sections.GameReport`)
of ``analysis/<game>/report.py`` (or of ``analysis/<game>/__init__.py``), found by name
(:func:`game_report`): the study blocks it reads, its verdicts, its sections, its
provenance text and its glossary terms. A game without one gets the generic sections of
:mod:`analysis.sections` (seats, player count, ratings, sample size), which read only the
core schema.

:func:`compute` runs every section's analyses once (:class:`Results`), :func:`summary`
condenses them to one row per headline number, :func:`layout` turns them into content
blocks (:mod:`analysis.content`) and :func:`write_report` has the one typesetter
(:mod:`analysis.typeset`, Typst) paginate them. The pages, each numbered ``page k of N``:

1. the verdicts (:class:`~analysis.sections.Verdict`: question, answer, estimate with its
   interval, sample, robustness, recommendation, the page with the evidence) and the
   command that regenerates the report; a game without verdicts gets the table of every
   headline number here instead;
2. the contents, with the page of every section and appendix;
3. about this study: provenance, study blocks, the game's notes;
4. the glossary (:data:`GLOSSARY` merged with the game's own terms);
5. the sections, each with its figures, key numbers and sentences of interpretation
   computed from the numbers they state (a section written as blocks is laid out by the
   typesetter; one that still draws whole matplotlib pages gets them as they are);
6. the appendices: every headline number (when page 1 has verdicts), then each section's
   dense tables.
"""

from __future__ import annotations

import dataclasses
import io
import math
import shlex
import tomllib
import warnings
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any

import polars as pl

from analysis.content import (
    Block,
    Caption,
    Contents,
    Document,
    Footnote,
    Heading,
    Pairs,
    Prose,
    Table,
    Title,
    VerdictCard,
)
from analysis.estimates import frame as estimate_frame
from analysis.load import IncompleteDatasetWarning, MissingBlock, manifest, study_game
from analysis.prose import see_section
from analysis.robust import weak_fields
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
from analysis.skill import PREFIX as SKILL_PREFIX
from analysis.skill_section import LABEL as SKILL_LABEL
from analysis.skill_section import skill_section
from analysis.typeset import typeset
from analysis.variant import rule_change_section, variant_table
from analysis.variant import verdict as rule_change_verdict
from analysis.what_to_change import LABEL as LABEL_WTC
from analysis.what_to_change import balance_table, what_to_change_section
from analysis.what_to_change import verdict as what_to_change_verdict
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
    "condition the study checked that may veto it (other fields of players, other plausible "
    "components; a random field describes and never vetoes). Otherwise the tag says why: "
    "'sign flips' (an interval excludes 0 with the other sign), 'no effect in …' (an "
    "interval lies within the equivalence bound, ±1 pp), 'weaker in …', 'too few games' (an "
    "interval too wide to tell; the detail gives the n that would settle it); 'no effect' "
    "means every interval lies within the bound; 'not checked': no other condition was run.",
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

    A study without some of the blocks its game's report reads is not refused: the report
    answers the questions its blocks support and lists the others
    (:func:`unanswered`).

    Raises
    ------
    SlicelabError
        When ``out`` is not a complete dataset.
    """
    with warnings.catch_warnings():  # an incomplete dataset is refused below
        warnings.simplefilter("ignore", IncompleteDatasetWarning)
        m = manifest(out, partial=True)
    study_game(m)
    if not m.get("complete"):
        raise SlicelabError(
            f"{out} is not complete; resume it (slicelab study {m.get('study_file')} --out "
            f"{out}) before reporting"
        )


@dataclasses.dataclass(frozen=True)
class Unanswered:
    """A question of the game's report that the study cannot answer.

    Attributes
    ----------
    section : str
        The section's label (``Specials``).
    block : str
        The study blocks it reads that the study lacks (its :attr:`Section.needs`, else the
        one its analysis found missing), or ``""`` when the section names none.
    """

    section: str
    block: str


def missing_blocks(r: Results) -> list[str]:
    """The blocks the game's report reads that the study lacks, in the report's order."""
    have = {a.get("group", a["name"]) for a in r.manifest["study"]["arms"]}
    return [b for b in r.report.blocks if b not in have]


def unanswered(r: Results) -> list[Unanswered]:
    """The questions (sections) of the game's report the study cannot answer."""
    return list(r.tables.get("unanswered", ()))


def answered(r: Results) -> list[Verdict] | None:
    """The game's page-1 verdicts, without those the study cannot answer, largest
    imbalance first (:func:`by_size`).

    A verdict reads the tables of its sections; when a section was left out for a missing
    block (:func:`unanswered`), a verdict that reads it raises looking up a table that is
    not there, and is left out too. With every section answered, such an error is a bug
    and is raised. A designer's variant's rule change (:mod:`analysis.variant`) is
    answered first, and a balance check's recommended change before it
    (:mod:`analysis.what_to_change`): each is the question its study was written for.
    """
    with skill_context(r):
        return _answered(r)


def _answered(r: Results) -> list[Verdict] | None:
    report = r.report
    first = [v for v in (what_to_change_verdict(r), rule_change_verdict(r)) if v is not None]
    if report.verdicts is None:
        return first or None
    questions = getattr(report.verdicts, "questions", None)
    if questions is None:
        return first + by_size(report.verdicts(r))
    found = []
    for question in questions:
        try:
            v = question(r)
        except (KeyError, AttributeError):
            if not unanswered(r):
                raise
            continue
        if v is not None:
            found.append(v)
    return first + by_size(found)


def estimates(
    r: Results, verdicts: list[Verdict] | None = None, headlines: list[Row] | None = None
) -> pl.DataFrame:
    """The report's numbers as data (:data:`analysis.estimates.ESTIMATE_SCHEMA`): one row
    per page-1 verdict that carries its :class:`~analysis.estimates.Estimate`, in page-1
    order, with its question, the section showing the evidence and its robustness
    (``source`` "page 1"); then every headline number of the appendix table that carries
    one (``source`` "appendix", its question the row's finding, its section the report's
    section). ``verdicts``, ``headlines``: page 1's and :func:`headline_rows`, when already
    computed."""
    verdicts = answered(r) if verdicts is None else verdicts
    headlines = headline_rows(r) if headlines is None else headlines
    rows = [{"question": v.question, "section": v.section, "robustness": v.robustness,
             "value": v.value} for v in verdicts or [] if v.value is not None]  # fmt: skip
    for h in headlines:
        values = [h["value"]] if h.get("value") is not None else h.get("values", [])
        rows += [{"source": "appendix", "question": h["finding"], "section": h["question"],
                  "value": v} for v in values]  # fmt: skip
    return estimate_frame(rows)


def write_estimates(table: pl.DataFrame, path: str | Path) -> Path:
    """Write :func:`estimates` atomically: Parquet for a ``.parquet`` path, else CSV."""
    path = Path(path)
    buffer = io.BytesIO()
    if path.suffix == ".parquet":
        table.write_parquet(buffer)
    else:
        table.write_csv(buffer)
    path.parent.mkdir(parents=True, exist_ok=True)
    dataset.atomic_write(path, buffer.getvalue())
    return path


def by_size(verdicts: list[Verdict]) -> list[Verdict]:
    """Verdicts with a :attr:`~analysis.sections.Verdict.size` (an imbalance in pp),
    largest first, then the others in reading order."""
    has = [v.size is not None and math.isfinite(v.size) for v in verdicts]
    sized = [v for v, h in zip(verdicts, has, strict=True) if h]
    rest = [v for v, h in zip(verdicts, has, strict=True) if not h]
    return sorted(sized, key=lambda v: -v.size) + rest


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
        if variant_table(m).get("compare"):  # a variant's rules against the default's
            report = dataclasses.replace(report, sections=(rule_change_section(),
                                                           *report.sections))  # fmt: skip
        if balance_table(m):  # a balance check's study: its candidates answer first
            # and it alone: its blocks play several rule sets, so no other question of the
            # game's report (a rating across them, a comparison) means anything here
            kept = tuple(s for s in report.sections if s.label == "Sample size")
            report = dataclasses.replace(report, sections=(what_to_change_section(), *kept))
        if report.skill is not None:  # every report with skill levels has the section
            needs = tuple(b for b in report.blocks if b.startswith(SKILL_PREFIX))
            report = dataclasses.replace(report, sections=_with_skill(report.sections, needs))
        r = Results(out=out, manifest=m, game=game, report=report,
                    options={**report.options, **options})  # fmt: skip
        have = {a.get("group", a["name"]) for a in m["study"]["arms"]}
        repeats = variant_table(m).get("repeats") or {}
        left: dict[str, Unanswered] = {}
        # the skill section is computed first: its weak levels rule every other's vetoes
        order = sorted(report.sections, key=lambda s: s.label != SKILL_LABEL)
        for section in order:
            with skill_context(r):
                why = _compute_section(r, section, have, repeats)
            if why is not None:
                left[section.label] = why
        if left:
            kept = tuple(s for s in report.sections if s.label not in left)
            r.report = dataclasses.replace(report, sections=kept)
            r.tables["unanswered"] = tuple(left[s.label] for s in report.sections
                                           if s.label in left)  # fmt: skip
    return r


def _with_skill(sections: tuple[Section, ...], needs: tuple[str, ...]) -> tuple[Section, ...]:
    """The sections with the skill section (reading the blocks ``needs``) before the
    sample-size page (or last)."""
    labels = [s.label for s in sections]
    at = labels.index("Sample size") if "Sample size" in labels else len(sections)
    return (*sections[:at], skill_section(needs), *sections[at:])


def _compute_section(
    r: Results, section: Section, have: set[str], repeats: dict
) -> Unanswered | None:
    """Add a section's tables to ``r``; return why it cannot be answered, if it cannot."""
    lacks = ", ".join(b for b in section.needs if b not in have)
    moot = [f"{b} (the variant sets {repeats[b]} itself)" for b in section.needs
            if b in repeats]  # fmt: skip
    if moot:  # its treatment block plays the variant: the question has no answer
        return Unanswered(section.label, "; ".join(moot))
    try:
        tables = section.compute(r)
    except MissingBlock as exc:  # the study cannot answer this question
        return Unanswered(section.label, lacks or exc.block)
    if not tables:  # a section computes nothing when its blocks are not there
        return Unanswered(section.label, lacks)
    r.tables.update(tables)
    return None


def skill_context(r: Results):
    """The verdict layer's skill rule for ``r``: within it, the fields of the levels too
    weak to matter (:func:`analysis.skill.weak_specs`) describe and never veto
    (:func:`analysis.robust.weak_fields`)."""
    return weak_fields(r.tables.get("weak_specs", ()))


def headline_rows(r: Results) -> list[Row]:
    """Every section's headline rows (:func:`analysis.sections.headline`), in report order."""
    rows: list[Row] = []
    for num, section in enumerate(r.report.sections, 1):
        if section.headlines is not None:
            rows += section.headlines(r, f"{num} {section.label}", list(rows))
    return rows


SUMMARY_SCHEMA = {"question": pl.String, "finding": pl.String, "estimate": pl.String,
                  "games": pl.Int64, "warning": pl.String, "unit": pl.String}  # fmt: skip
"""The columns of :func:`summary`."""


def summary(r: Results, rows: list[Row] | None = None) -> pl.DataFrame:
    """One row per headline number: ``question, finding, estimate, games, warning, unit``
    (``games`` is the row's n, counted in ``unit``); ``rows``: :func:`headline_rows`, when
    already computed."""
    rows = headline_rows(r) if rows is None else rows
    rows = [{"unit": "games", **{k: v for k, v in row.items() if k in SUMMARY_SCHEMA}}
            for row in rows]  # fmt: skip
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA)


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
        command += f"  (and, in Python, the report options {', '.join(fixed)})"
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
    """The colour of a robustness tag: green for ``robust``, red for ``not robust…`` (a
    sign that flips, an effect absent or weaker elsewhere), amber when the check could not
    tell (``not robust: too few games``, ``not fully checked``), grey for anything else
    (``no effect``, ``not checked``)."""
    t = label.strip().lower()
    if t.startswith("robust"):
        return GREEN
    if t.startswith("not robust: too few"):
        return AMBER
    if t.startswith("not robust"):
        return RED
    if t.startswith("not fully"):
        return AMBER
    return GREY


def _title_block(r: Results, what: str) -> Title:
    """Page 1's header: the game's title, the report's subtitle and what the page holds,
    the study in one line."""
    m = r.manifest
    study = m["study"]
    blocks = _blocks(study)
    where = m.get("study_file") or str(r.out)
    size_ = f", size {m['size']}" if m.get("size") else ""
    line = (f"Study {m['study_name']} ({where}{size_}) · "
            f"{sum(b[1] for b in blocks.values()):,} simulated games in {len(study['arms'])} "
            f"arms · dataset written {str(m.get('created', '?'))[:10]}")  # fmt: skip
    label = variant_table(m).get("label")
    subtitle = (
        f"{r.report.subtitle} of a designer's variant ({label})" if label else (r.report.subtitle)
    )
    return Title(_title(r), f"{subtitle} — {what}", line)


def _variant_prose(r: Results) -> list[Block]:
    """Page 1's paragraph naming the variant the verdicts describe."""
    v = variant_table(r.manifest)
    if not v.get("label"):
        return []
    parts = [f"Every verdict below is measured on the variant ({v['label']}), not on the "
             "published game"]  # fmt: skip
    if v.get("derived"):
        parts.append("; the data files the study derives (perturbed copies, treatments) are "
                     "drawn from the variant's own")  # fmt: skip
    if v.get("compare"):
        parts.append("; the rule change is measured against the default rules on the same "
                     "deals (the what-if section)")  # fmt: skip
    command = f" Study written by: {v['command']}." if v.get("command") else ""
    return [Prose("".join(parts) + "." + command, style="bold", size=8.5)]


def _unanswered_blocks(r: Results) -> list[Block]:
    """Page 1's list of the questions this study cannot answer, with the blocks that would
    answer them (and, when every question is answered, the blocks it lacks all the same:
    conditions its verdicts are not checked in)."""
    left = unanswered(r)
    missing = missing_blocks(r)
    if not left and not missing:
        return []
    if balance_table(r.manifest):  # a check answers one question, by design
        own = (LABEL_WTC, "Sample size")
        names = ", ".join(s.label for s in game_report(r.game).sections if s.label not in own)
        study = f" (as in {r.report.example})" if r.report.example else ""
        return [Prose(
            f"This study is a balance check: it answers what to change, and plays none of "
            f"the blocks of the {_title(r)} report's other questions ({names}); its full "
            f"balance study{study} answers those.", size=8)]  # fmt: skip
    example = f" (as in {r.report.example})" if r.report.example else ""
    lacks = (f"This study lacks {len(missing)} of the {len(r.report.blocks)} study blocks the "
             f"{_title(r)} report reads ({', '.join(missing)})")  # fmt: skip
    fix = (f"Add the blocks{example}, or have slicelab plan write the full balance study of "
           "your variant (see slicelab plan --help).")  # fmt: skip
    if not left:
        text = (
            f"{lacks}. Every question is answered, but the verdicts that would check "
            f"their answers in those blocks are checked in fewer conditions. {fix}"
        )
        return [Heading("Blocks this study lacks", level=3), Prose(text, size=8)]
    frame = pl.DataFrame(
        {"question (section of the full report)": [u.section for u in left],
         "missing or moot study blocks": [u.block or "some of those above" for u in left]}
    )  # fmt: skip
    if missing:
        text = (f"{lacks}, so the report leaves out the questions below and every verdict "
                f"that reads them. {fix}")  # fmt: skip
    else:
        text = ("The questions below ask what a rule does by a block that changes it; the "
                "variant already plays that rule, so the block plays the same games as the "
                "variant and the question has no answer here (the variant's own rule change "
                "is measured against the default rules in its own section).")  # fmt: skip
    return [Heading("Questions this study cannot answer", level=3), Prose(text, size=8),
            Table.of(frame, (0.45, 0.45), size=8)]  # fmt: skip


def recommended(v: Verdict) -> tuple[str, str]:
    """The recommendation page 1 prints for a verdict, and its detail line.

    The one rule, for every game: a recommendation is printed only from a robust effect
    (:func:`analysis.robust.judge`'s ``holds``). A verdict whose effect is not robust, or
    was not checked across the fields and data variants, keeps its answer; its
    recommendation is withheld and the detail line says why, so a page never acts on an
    effect it has not shown to hold.
    """
    label = v.robustness or "not checked"
    if not v.recommendation or label == "robust":
        return v.recommendation, v.detail
    why = (f"No recommendation: its effect is {label}; a recommendation needs an effect "
           "that holds in every field and data variant checked.")  # fmt: skip
    return "", f"{v.detail} {why}".strip()


def _verdict_cards(verdicts: list[Verdict], refs: dict[str, int]) -> list[VerdictCard]:
    """One card per verdict; ``refs``: section label → section number (its heading's key
    is :func:`section_key`)."""
    cards = []
    for k, v in enumerate(verdicts, 1):
        num = refs.get(v.section)
        rec, detail = recommended(v)
        cards.append(VerdictCard(
            number=k, question=v.question, answer=v.answer,
            estimate=f"{v.estimate or '—'};  n = {v.n:,} {v.n_unit}",
            robustness=v.robustness or "not checked",
            colour=robustness_colour(v.robustness or "not checked"), detail=detail,
            recommendation=rec,
            ref=section_key(num) if num is not None else "",
            ref_text=f"section {num}" if num is not None else v.section,
        ))  # fmt: skip
    return cards


def section_key(number: int) -> str:
    """The reference key of section ``number``'s heading."""
    return f"section-{number}"


def _headline_frame(headlines: pl.DataFrame) -> pl.DataFrame:
    return headlines.select(
        pl.col("question").alias("section"), "finding", "estimate",
        pl.when(pl.col("games") > 0)
        .then(pl.format("{} {}", pl.col("games"), pl.col("unit")))
        .alias("n (unit)"), "warning",
    )  # fmt: skip


HEADLINE_WIDTHS = (0.1, 0.33, 0.2, 0.07, 0.22)


def _headline_intro(r: Results) -> str:
    see = see_section(r, "Sample size")
    return ("One line per headline number. Estimates are differences in win share "
            "(percentage points) unless marked, with 95% intervals. 'warning' marks a number "
            f"too small to support its claim{see}; — marks an empty cell.")  # fmt: skip


def _headline_table(headlines: pl.DataFrame) -> Table:
    return Table.of(_headline_frame(headlines), HEADLINE_WIDTHS, size=6.5)


def _front_page(
    r: Results, verdicts: list[Verdict] | None, headlines: pl.DataFrame, command: str
) -> list[Block]:
    """Page 1: the verdicts (or, without them, every headline number) under the title,
    the regenerating command at the bottom."""
    footnote = Footnote("Regenerate this report:", command)
    if verdicts is None:
        return [Heading("Every headline number", hidden=True),
                _title_block(r, "every headline number"), footnote, *_variant_prose(r),
                Prose(_headline_intro(r), size=8), _headline_table(headlines),
                *_unanswered_blocks(r)]  # fmt: skip
    refs = {s.label: k for k, s in enumerate(r.report.sections, 1)}
    intro = Prose("Each answer is computed from this study's numbers, with its 95% interval, "
                  "its sample, whether it holds under every condition the study checked "
                  "(robustness) and the page with the evidence. Terms: see the glossary.",
                  size=8.5)  # fmt: skip
    cards: list[Block] = list(_verdict_cards(verdicts, refs))
    if not verdicts:
        cards = [Prose("The game's report states no verdict for this study.")]
    return [Heading("Verdicts", hidden=True), _title_block(r, "verdicts"), footnote,
            *_variant_prose(r), intro, *cards, *_unanswered_blocks(r)]  # fmt: skip


# ----------------------------------------------------------------------------- front matter


def _about(r: Results, command: str) -> list[Block]:
    """About this study: provenance, the study blocks and the game's notes."""
    m = r.manifest
    study = m["study"]
    report = r.report
    blocks = _blocks(study)
    game_rows = (report.provenance or _default_provenance)(m)
    complete = "complete" if m.get("complete") else "incomplete"
    prov = [
        ("Game", _title(r)),
        ("Study", f"{m['study_name']}  ({m['study_file']})"),
        ("Study hash", m["study_hash"]),
        ("Seed", str(study["seed"])),
        ("Games", f"{sum(b[1] for b in blocks.values()):,} in {len(study['arms'])} arms"),
        ("Code version", m["code_version"]),
        ("Engines", ", ".join(sorted(set(m["engines"].values())))),
        *game_rows,
        *([("Variant", variant_table(m)["label"])] if variant_table(m).get("label") else []),
        ("Dataset written", f"{m['created']} ({complete})"),
        ("Report built", datetime.now(UTC).isoformat(timespec="seconds")),
        ("Regenerate", command),
    ]
    frame = pl.DataFrame(
        [
            {"block": g, "arms": b[0], "games": f"{b[1]:,}",
             "player counts": ", ".join(map(str, sorted(b[2])))}
            for g, b in blocks.items()
        ]
    )  # fmt: skip
    # a game's notes describe the fields of its balance study; a balance check's section
    # says which fields it played
    own = report.notes and not balance_table(r.manifest)
    notes = [Prose(text) for text in (report.notes(r) if own else [])]
    return [Heading("About this study"),
            Prose("slicelab — simulated games, effects with 95% intervals", style="italic"),
            Pairs(prov, mono=True), Heading("Study blocks", level=3),
            Table.of(frame, (0.3, 0.12, 0.2, 0.26), size=8.5), *notes]  # fmt: skip


def _glossary(terms: dict[str, str]) -> list[Block]:
    """The glossary: each term in bold, its definition beside it."""
    return [Heading("Glossary"),
            Prose("The terms of this report, generic and the game's own.", style="muted"),
            Pairs(list(terms.items()))]  # fmt: skip


# ----------------------------------------------------------------------------- layout


def _section_blocks(section: Section, r: Results, num: int) -> list[Block]:
    """A section's blocks, its first level-1 heading keyed for page 1's references."""
    out = list(section.blocks(r, num))
    for k, b in enumerate(out):
        if isinstance(b, Heading) and b.level == 1:
            out[k] = dataclasses.replace(b, key=section_key(num))
            break
    return out


def _appendix_blocks(section: Section, r: Results, label: str) -> list[Block]:
    return list(section.appendix_blocks(r, label)) if section.appendix_blocks else []


def layout(
    r: Results,
    pdf_path: str | Path = "report.pdf",
    command: str | None = None,
    verdicts: list[Verdict] | None = None,
) -> Document:
    """The report as content blocks, in page order, for :func:`analysis.typeset.typeset`.

    Parameters
    ----------
    r : Results
        The computed analyses.
    pdf_path : path
        Where the report is to be written (named in the regenerating command).
    command : str, optional
        The command that regenerates the report (default: :func:`regenerate_command`).
    verdicts : list of Verdict, optional
        Page 1's answers, when already computed (default: :func:`answered`).
    """
    with skill_context(r):
        return _layout(r, pdf_path, command, verdicts)


def _layout(r: Results, pdf_path, command, verdicts) -> Document:
    report = r.report
    headlines = summary(r)
    command = command or regenerate_command(r, pdf_path)
    verdicts = answered(r) if verdicts is None else verdicts
    labels = appendix_labels(report)
    name = f"{_title(r)} — {r.manifest['study_name']}"
    doc = Document(f"{_title(r)} balance — {r.manifest['study_name']}", name)
    doc.add(_front_page(r, verdicts, headlines, command))
    doc.add(Heading("Contents"), Contents())
    doc.add(_about(r, command), _glossary(glossary(report)))
    for num, section in enumerate(report.sections, 1):
        doc.add(_section_blocks(section, r, num))
    appendices: list[Block] = []
    if verdicts is not None:
        appendices += [Heading(f"{labels[HEADLINES_APPENDIX]} — {HEADLINES_APPENDIX}"),
                       Prose(_headline_intro(r), size=8), _headline_table(headlines)]  # fmt: skip
    for section in report.sections:
        appendices += _appendix_blocks(section, r, labels.get(section.label, ""))
    if appendices:
        doc.add(Caption("Appendices"), appendices)
    return doc


def write_report(
    out: str | Path,
    pdf_path: str | Path,
    results: Results | None = None,
    command: str | None = None,
    estimates_path: str | Path | None = None,
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
    estimates_path : path, optional
        Also write the report's numbers as data there (:func:`estimates`, :func:`write_estimates`).
    **options
        The game's report options (see :func:`compute`).

    Returns
    -------
    Path
        ``pdf_path``.
    """
    with dataset.held(out):  # the layout reads the dataset too
        r = results or compute(out, **options)
        verdicts = answered(r)
        doc = layout(r, pdf_path, command, verdicts)
    if estimates_path is not None:
        write_estimates(estimates(r, verdicts), estimates_path)
    return typeset(doc, pdf_path)
