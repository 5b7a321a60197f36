"""``slicelab plan``: a game's shipped balance study redrawn for a designer's variant.

A *variant* is a data file of the game's (a deck, a cake, a board, a card set) and rule
options, either or both. :func:`plan_study` reads the game's shipped balance study
(:attr:`sims.core.game.BalancePlan.study`) and writes it again with

- every block playing the variant: the variant's data file under the game's data key
  (:attr:`BalancePlan.data`) and its rule options under each block's own (a block's own
  rules are its treatment and win; its comment says when one sets a rule the variant sets);
- the data files the shipped study derives from the default data (New York Slice's
  plausible decks, Horno's treated card sets) derived from the variant's instead, by the
  game (:attr:`BalancePlan.derive`), from the study's seed alone, and written in a folder
  beside the study (``<study>-data/``); a block naming a shipped data set by name (another
  board, an alternative card set) keeps it: it is a comparison with the variant. What the
  robustness blocks check around the variant, and that a game has no perturbation of its
  data where it has none, is said in the study's header (:attr:`BalancePlan.robustness`);
- when the variant changes rules, what-if blocks in the shipped study's manner: each block
  of :attr:`BalancePlan.whatif` again as ``whatif-default-<block>`` under the default rules
  (its own shipped rules only) on the same deals, so the rule change is the block minus
  its copy; the shipped what-if blocks try their candidate changes on top of the variant;
- a header comment naming the variant, the command that wrote it and the study's seed,
  and a ``[variant]`` table (label, data, rules, the files derived, the what-if pairs, the
  blocks whose treatment the variant already plays, the command) that the core passes to
  the dataset's manifest for the report.

Every path in the written study is relative to the study's folder, so the study and its
data folder can be moved together. The study is validated like any study file before
anything is written; the same inputs give the same bytes.

The core knows no game: everything game-specific comes from the game's
:class:`~sims.core.game.BalancePlan`.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shlex
import tempfile
import textwrap
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sims.core.errors import InertRuleError, SlicelabError
from sims.core.game import BalancePlan, DerivedFile, get_game
from sims.core.study import MAX_NAME, Study, parse_study

PROJECT = Path(__file__).resolve().parents[2]
"""The project's folder (the shipped studies are ``PROJECT/studies/``)."""
WHATIF_PREFIX = "whatif-default-"
"""A what-if copy of a block under the default rules is named ``whatif-default-<block>``."""
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_RULE = "# " + "-" * 64
_NONE = object()  # a rule a block does not set


@dataclass(frozen=True)
class Planned:
    """A planned study, validated, not yet written.

    Attributes
    ----------
    out : Path
        The study file to write.
    text : str
        Its text.
    files : dict
        The derived data files to write beside it: path → text.
    study : Study
        The study as :func:`~sims.core.study.parse_study` reads it.
    """

    out: Path
    text: str
    files: dict[Path, str]
    study: Study


# ------------------------------------------------------------------------------ TOML


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def toml_value(value: Any) -> str:
    """A value as TOML (strings, numbers, booleans, arrays and inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"no TOML for {value!r}")


def _comment(text: str, width: int = 88) -> list[str]:
    """A paragraph as comment lines of at most ``width`` characters."""
    return [f"# {line}" for line in textwrap.wrap(text, width - 2, break_on_hyphens=False)]


def rules_text(rules: Mapping[str, Any]) -> str:
    """Rule options as a reader sees them: ``a = 1, b = true``."""
    return ", ".join(f"{k} = {toml_value(v)}" for k, v in rules.items())


# ---------------------------------------------------------------------- the shipped study


def _block_comments(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """The comment lines of each ``[[arms]]`` block of a study's text: those just above
    its header (leading) and those inside its body (inner), in block order."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if line.strip() == "[[arms]]"]
    leading, inner = [], []
    for n, head in enumerate(heads):
        j = head
        while j > 0 and lines[j - 1].lstrip().startswith("#"):
            j -= 1
        leading.append(lines[j:head])
        end = heads[n + 1] if n + 1 < len(heads) else len(lines)
        if n + 1 < len(heads):
            while end > head and lines[end - 1].lstrip().startswith("#"):
                end -= 1
        inner.append([x for x in lines[head + 1 : end] if x.lstrip().startswith("#")])
    return leading, inner


def shipped_study(plan: BalancePlan, title: str) -> tuple[Path, str, dict[str, Any]]:
    """The shipped balance study a plan starts from: its path, text and parsed data.

    Raises
    ------
    SlicelabError
        If it is not in the project's folder (slicelab installed without its studies).
    """
    path = PROJECT / plan.study
    if not path.is_file():
        raise SlicelabError(
            f"the {title} balance study {plan.study} is not in {PROJECT} (slicelab seems "
            "installed without its studies); run slicelab plan from a checkout of the project"
        )
    text = path.read_text(encoding="utf-8")
    return path, text, tomllib.loads(text)


# ------------------------------------------------------------------------------ planning


def _relative(path: Path, folder: Path) -> str:
    """``path`` relative to ``folder``, with forward slashes."""
    return Path(os.path.relpath(path, folder)).as_posix()


def study_name(out: Path) -> str:
    """A study name from the study file's name (``my study.toml`` → ``my-study``)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", out.stem).strip("-.")[: MAX_NAME - 8]
    return name if name and name[0].isalnum() else f"plan-{name}".rstrip("-")


def _scaled(games: Any, factor: float) -> Any:
    """A block's ``games`` (a count, or a table by player count) at a size's factor, as
    ``--size`` scales them (each at least 1)."""
    if isinstance(games, dict):
        return {k: _scaled(v, factor) for k, v in games.items()}
    return max(1, math.ceil(games * factor)) if factor != 1 else games


def _with(block: dict[str, Any], key: str, value: Any, before: str = "games") -> dict[str, Any]:
    """``block`` with ``key`` set: in its place if it has it, else just before ``before``."""
    if key in block or before not in block:
        return {**block, key: value}
    out: dict[str, Any] = {}
    for k, v in block.items():
        if k == before:
            out[key] = value
        out[k] = v
    return out


def _check_out(out: Path, files: Mapping[Path, str], force: bool) -> None:
    """Refuse an ``--out`` that is not a new ``.toml`` file (or a file to overwrite with
    ``force``), and derived files that exist, before anything is written."""
    if out.suffix.lower() != ".toml":
        raise SlicelabError(
            f"--out {out}: a study file's name ends in .toml; pass e.g. "
            f"--out {out.with_suffix('.toml').name}"
        )
    if out.is_dir():
        raise SlicelabError(
            f"--out {out} is a directory; pass the study file to write in it, "
            f"e.g. --out {out / 'my-study.toml'}"
        )
    if force:
        for path in files:
            if path.is_dir():
                raise SlicelabError(
                    f"{path} is a directory where the plan writes a data file; move it away"
                )
        return
    for path in [out, *files]:
        if path.exists():
            what = "" if path == out else " (a data file the plan writes beside the study)"
            raise SlicelabError(f"{path} exists{what}; pass --force to overwrite it")


def data_folder(out: Path) -> str:
    """The folder beside a planned study that holds its derived data files."""
    return f"{out.stem}-data"


@contextlib.contextmanager
def _existing(folder: Path) -> Iterator[None]:
    """``folder`` made to exist while the plan is checked (relative paths are resolved
    through it), then removed again with every parent it needed: nothing is left behind
    before :func:`write_plan` writes."""
    made = []
    for parent in [folder, *folder.parents]:
        if parent.exists():
            break
        made.append(parent)
    try:
        for path in reversed(made):
            path.mkdir()
        yield
    finally:
        for path in made:
            with contextlib.suppress(OSError):
                path.rmdir()


def plan_study(
    game: str,
    out: Path,
    data: str | None = None,
    rules: Mapping[str, Any] | None = None,
    *,
    flag: str | None = None,
    rule_items: tuple[str, ...] = (),
    size: str | None = None,
    seed: int | None = None,
    force: bool = False,
) -> Planned:
    """Plan a game's balance study for a variant (see the module notes); nothing written.

    Parameters
    ----------
    game : str
        The game's registry name.
    out : Path
        The study file to write.
    data : str, optional
        The variant's data file (or a shipped data set's name, where the game has them).
    rules : mapping, optional
        The variant's rule options.
    flag : str, optional
        The flag ``data`` was given by (for messages and the header's command).
    rule_items : tuple of str
        The ``--rule`` items as given (for the header's command).
    size : str, optional
        One of the shipped study's sizes: the written study plays that many games (and
        declares no sizes).
    seed : int, optional
        The study's seed (default: the shipped study's); the perturbations are drawn from it.
    force : bool
        Overwrite ``out`` and the plan's data files if they exist.

    Returns
    -------
    Planned

    Raises
    ------
    SlicelabError
        For an unknown game, a game without a balance plan, no variant, a missing or invalid
        data file, an unknown or invalid rule option, an unknown size, an ``out`` that exists
        without ``force``: one line naming the problem and the fix.
    """
    the_game = get_game(game)
    info = the_game.info
    plan = info.balance
    if plan is None:
        raise SlicelabError(
            f"{info.title} declares no balance study, so slicelab plan cannot "
            "write one for a variant; write a study file by hand (format in "
            "sims/core/study.py, examples in studies/)"
        )
    rules = dict(rules or {})
    flag = flag or "--data"
    if data is not None and plan.data is None:
        raise SlicelabError(
            f"{info.title} has no data file to vary; give the variant as rule "
            "options (--rule NAME=VALUE)"
        )
    if data is None and not rules:
        copy = f", e.g. a copy of {plan.default_data}" if plan.default_data else ""
        what = f"{flag} FILE (your {plan.data} file{copy}) and/or " if plan.data else ""
        raise SlicelabError(
            f"no variant to plan: give {what}--rule NAME=VALUE (without one, "
            f"the study is the shipped {plan.study})"
        )
    source, text, shipped = shipped_study(plan, info.title)
    out = Path(out)
    folder = out.parent.absolute()
    _check_out(out, {}, force)
    if size is not None:
        sizes = shipped.get("sizes", {})
        if size not in sizes:
            known = ", ".join(sorted(sizes)) or "none"
            raise SlicelabError(f"--size {size}: no such size in {plan.study}; its sizes: {known}")
    factor = float(shipped["sizes"][size]) if size is not None else 1.0
    seed = shipped["seed"] if seed is None else seed

    # the variant's data file: a file (written relative to the study) or a shipped name
    data_ref = resolved = None
    if data is not None:
        path = Path(data)
        if path.is_dir():
            raise SlicelabError(f"{flag} {data} is a directory; pass your {plan.data} file")
        if path.is_file():
            resolved = str(path.resolve())
            data_ref = _relative(path.resolve(), folder)
        elif path.suffix.lower() == ".toml" or len(path.parts) > 1:
            copy = f" (to start from the default, copy {plan.default_data})" * bool(
                plan.default_data
            )
            raise SlicelabError(
                f"{flag} {data}: no such file; pass the path of your {plan.data} file{copy}"
            )
        else:
            data_ref = resolved = data  # a shipped data set's name: the game checks it

    job = _Job(the_game, plan, out, folder, text, shipped, source, data_ref, resolved, rules,
               flag, rule_items, size, factor, seed, force)  # fmt: skip
    with _existing(folder):
        return _plan(job)


@dataclass(frozen=True)
class _Job:
    """What :func:`plan_study` was asked for, read and checked."""

    game: Any  # the Game
    plan: BalancePlan
    out: Path
    folder: Path  # the study's folder, absolute
    text: str  # the shipped study's text ...
    shipped: dict[str, Any]  # ... parsed
    source: Path  # ... and its path
    data_ref: str | None  # the variant's data as the study names it
    resolved: str | None  # ... and as the game reads it
    rules: dict[str, Any]
    flag: str
    rule_items: tuple[str, ...]
    size: str | None
    factor: float
    seed: int
    force: bool


def _plan(job: _Job) -> Planned:
    """:func:`plan_study` once its inputs are read and the study's folder exists."""
    the_game, plan, out, folder = job.game, job.plan, job.out, job.folder
    data_ref, rules, seed = job.data_ref, job.rules, job.seed
    _probe(the_game, plan, job.shipped["arms"][0], data_ref, rules, job.rule_items, seed, folder)

    derived: dict[str, DerivedFile] = dict(plan.derive(job.resolved, seed)) if plan.derive else {}
    sub = data_folder(out)
    derived_paths = {ref: folder / sub / d.name for ref, d in derived.items()}
    files = {derived_paths[ref]: d.text for ref, d in derived.items()}
    _check_out(out, files, job.force)
    with tempfile.TemporaryDirectory(prefix="slicelab-plan-") as tmp:
        copies = {}  # the derived files, read from here until they are written
        for n, (path, content) in enumerate(files.items()):
            copy = Path(tmp) / f"{n}-{path.name}"
            copy.write_text(content, encoding="utf-8")
            copies[str(path)] = str(copy)
        return _plan_blocks(job, derived, derived_paths, files, copies)


def _plan_blocks(
    job: _Job,
    derived: Mapping[str, DerivedFile],
    derived_paths: Mapping[str, Path],
    files: dict[Path, str],
    copies: Mapping[str, str],
) -> Planned:
    """The planned study's blocks, header and ``[variant]`` table, each block checked as it
    is planned and the whole study read back at the end (``copies``: the derived files'
    temporary copies, by the path they will have)."""
    the_game, plan, out, folder, shipped = job.game, job.plan, job.out, job.folder, job.shipped
    data_ref, rules, seed, factor, source = (
        job.data_ref,
        job.rules,
        job.seed,
        job.factor,
        job.source,
    )
    info = the_game.info
    game = info.name
    blocks = shipped["arms"]
    leading, inner = _block_comments(job.text)
    sub = data_folder(out)
    key = plan.rules

    arms_text: list[str] = []
    planned: list[dict[str, Any]] = []  # each shipped block with the variant's data, own rules
    playing: list[list[int]] = []  # the player counts where each plays the variant's rules
    shown: set[str] = set()
    kept: list[str] = []
    repeats: dict[str, str] = {}  # blocks whose own rules are the variant's: no treatment left
    # rules every block sets alike are the study's setting, not a block's treatment
    common = dict(blocks[0].get(key, {})) if blocks else {}
    for block in blocks[1:]:
        own = block.get(key, {})
        common = {k: v for k, v in common.items() if own.get(k, _NONE) == v}
    for i, block in enumerate(blocks):
        name = block["name"]
        own_rules = dict(block.get(key, {}))
        b = dict(block)
        comment = list(leading[i])
        notes: list[str] = []
        own_data = block.get(plan.data) if plan.data else None
        if own_data is not None and own_data in derived:
            ref = f"{sub}/{derived[own_data].name}"
            b[plan.data] = ref
            comment = [x for x in comment if x.startswith("# ---")]
            if ref not in shown:
                comment += _comment(f"{ref}: {derived[own_data].note}")
                shown.add(ref)
            else:
                comment += [f"# {ref} (above)."]
        elif own_data is not None:
            if (source.parent / str(own_data)).is_file():
                raise SlicelabError(
                    f"{plan.study}: block {name!r} reads {own_data}, a data file of the shipped "
                    f"study that {info.title} does not derive from a variant; the game's "
                    "balance plan misses it"
                )
            notes.append(
                f"This block keeps its own {plan.data} = {toml_value(own_data)}: shipped "
                "data compared with the variant's, not the variant."
            )
            kept.append(name)
        elif data_ref is not None:
            b = _with(b, plan.data, data_ref)
        if factor != 1:
            b["games"] = _scaled(b["games"], factor)
        planned.append(b)
        over = {k: own_rules[k] for k in rules if k in own_rules}
        differ = {k: v for k, v in over.items() if v != rules[k]}
        same = {k: v for k, v in over.items() if v == rules[k]}
        if differ:
            notes.append(
                f"Its own rules set {rules_text(differ)}, in place of the variant's "
                f"{rules_text({k: rules[k] for k in differ})}."
            )
        if same:
            notes.append(
                f"The variant already sets {rules_text(same)}, which this block's own rules "
                "set: it plays what its paired block plays."
            )
            treatment = {k for k, v in own_rules.items() if common.get(k, _NONE) != v}
            if treatment and treatment <= set(same):  # its treatment is the variant itself
                repeats[name] = rules_text(same)
        merged = {**rules, **own_rules}
        if merged:
            b = _with(b, key, merged)
        parts = _split_moot(b, key, own_rules, seed, folder, copies)
        playing.append([c for part, moot in parts if not moot for c in _counts(part)])
        for n, (part, moot) in enumerate(parts):
            why = list(notes)
            if moot:
                why.append(
                    f"The variant's {rules_text(rules)} is left out of this block: {moot}; so "
                    "it plays the same games either way."
                )
            if len(parts) > 1:
                why.insert(0, f"At {', '.join(map(str, part['players']))} players:")
            lines = [*(comment if n == 0 else []), *(_comment(" ".join(why)) if why else [])]
            arms_text.append("\n".join([*lines, *_block_lines(part, inner[i])]))

    compare: dict[str, str] = {}
    if rules:
        first = True
        for base in plan.whatif:
            for i, block in enumerate(blocks):
                if block["name"] != base or not playing[i]:
                    continue
                copy = {**_at(planned[i], playing[i]), "name": f"{WHATIF_PREFIX}{base}"}
                compare[base] = copy["name"]
                lines = []
                if first:
                    lines += [f"{_RULE} what-if: the variant's rule change"]
                    lines += _comment(
                        f"The variant changes the rules ({rules_text(rules)}). Each block below "
                        "plays a block above again under the default rules (its own shipped "
                        "rules only), on the same deals (the same seed): the rule change is the "
                        "block above minus its copy, paired by deal, as the shipped study's "
                        "what-if blocks compare a candidate change with the printed rules."
                    )
                    first = False
                lines += _comment(
                    f"`{base}` under the default rules, without the variant's {rules_text(rules)}."
                )
                arms_text.append("\n".join([*lines, *_block_lines(copy, [])]))

    name = study_name(out)
    label = _label(plan, data_ref, rules)
    size = job.size
    command = _command(game, job.flag, data_ref, job.rule_items, size, seed, shipped, out)
    variant = {
        "label": label,
        "game": game,
        "study": plan.study,
        **({"data": data_ref, "data_key": plan.data} if data_ref is not None else {}),
        "rules": rules,
        "derived": [f"{sub}/{d.name}" for d in derived.values()],
        "compare": compare,
        **({"repeats": repeats} if repeats else {}),
        "seed": seed,
        "command": command,
    }
    top = {k: v for k, v in shipped.items() if k not in ("arms", "sizes")}
    top["name"] = name
    top["seed"] = seed
    if "description" in top:
        top["description"] = f"{top['description']} — for the variant {label}"
    if size is None and "sizes" in shipped:
        top["sizes"] = shipped["sizes"]
    order = ["name", "seed", "chunk_size", "description", "sizes"]
    top = {k: top[k] for k in order if k in top} | top
    header = _header(
        info.title,
        plan,
        label,
        command,
        seed,
        size,
        factor,
        bool(rules),
        kept,
        out,
        derived_paths,
        folder,
    )
    study_text = (
        "\n".join(
            [
                *header,
                "",
                *[f"{_key(k)} = {toml_value(v)}" for k, v in top.items()],
                "",
                "# The variant, for the report (the core plays nothing from this table).",
                "[variant]",
                *[f"{_key(k)} = {toml_value(v)}" for k, v in variant.items()],
                "",
                "\n\n".join(arms_text),
            ]
        )
        + "\n"
    )
    study = parse_study(tomllib.loads(study_text), str(out), folder, study_text, files=copies)
    return Planned(out=out, text=study_text, files=files, study=study)


def _block_lines(block: dict[str, Any], inner: list[str]) -> list[str]:
    """An arm block as TOML lines, its inner comments before its ``games``."""
    lines = ["[[arms]]"]
    for k, v in block.items():
        if k == "games":
            lines += inner
        lines.append(f"{_key(k)} = {toml_value(v)}")
    return lines


def _probe(the_game, plan, block, data_ref, rules, rule_items, seed, folder) -> None:
    """Check the variant on one game of the study's first block, as the command line checks
    its flags (the game's own messages), at the first of its player counts where the game
    does not refuse the rules as moot (:class:`~sims.core.errors.InertRuleError`), and
    refuse rule options that are all defaults."""
    players = block["players"] if isinstance(block["players"], list) else [block["players"]]
    strategies = block["strategies"]
    if "{" in json.dumps(strategies):  # a grid's placeholder: any strategy will do
        strategies = "random"
    key = plan.rules
    for n, count in enumerate(players):
        probe = {"name": "variant", "game": block["game"], "games": 1, "players": count,
                 "strategies": strategies}  # fmt: skip
        if data_ref is not None:
            probe[plan.data] = data_ref
        try:
            _one({**probe, key: {**rules, **block.get(key, {})}}, seed, folder)
            changed = _one({**probe, key: rules}, seed, folder)
        except SlicelabError as exc:
            if _inert(exc) is None or n == len(players) - 1:
                raise
            continue
        break
    if rules:
        fp = the_game.fingerprint
        if fp(changed).get("variant_id") == fp(_one(probe, seed, folder)).get("variant_id"):
            given = " ".join(f"--rule {item}" for item in rule_items) or rules_text(rules)
            raise SlicelabError(
                f"{given}: these are the default rules, so the variant changes nothing; give "
                "a rule option another value than its default (see the game's rules document)"
            )


def _inert(exc: BaseException | None) -> InertRuleError | None:
    """The :class:`~sims.core.errors.InertRuleError` behind a refusal (a study's error
    keeps the game's as its context), or None."""
    while exc is not None and not isinstance(exc, InertRuleError):
        exc = exc.__context__
    return exc


def _one(block: dict[str, Any], seed: int, folder: Path):
    data = {"seed": seed, "name": "plan", "arms": [block]}
    return parse_study(data, source="command line", base=folder).arms[0]


def _check_block(block: dict[str, Any], seed: int, folder: Path, copies: Mapping[str, str]):
    """A planned block checked as the study will read it (its derived files from their
    temporary copies)."""
    data = {"seed": seed, "name": "plan", "arms": [block]}
    return parse_study(data, source="the planned study", base=folder, files=copies)


def _counts(block: dict[str, Any]) -> list[int]:
    """A block's player counts."""
    return block["players"] if isinstance(block["players"], list) else [block["players"]]


def _at(block: dict[str, Any], counts: list[int]) -> dict[str, Any]:
    """``block`` at some of its player counts (its ``games`` table cut to them)."""
    out = {**block, "players": counts if isinstance(block["players"], list) else counts[0]}
    if isinstance(block["games"], dict):
        out["games"] = {k: v for k, v in block["games"].items() if int(k) in counts}
    return out


def _split_moot(block, key, own_rules, seed, folder, copies) -> list[tuple[dict, str]]:
    """The planned block as it is checked, with why the variant's rules are left out: the
    block itself (``""``) when the game plays its rules; at the player counts where the
    game refuses them as changing none of its games
    (:class:`~sims.core.errors.InertRuleError`), the block again under its own rules only,
    with the game's reason (two blocks of the same name, each at its counts, expand to the
    same arms)."""
    reason = _moot(block, seed, folder, copies)
    if not reason:
        return [(block, "")]
    counts = _counts(block)
    moot = {n: _moot(_at(block, [n]), seed, folder, copies) for n in counts}
    playing = [n for n in counts if not moot[n]]
    left = [n for n in counts if moot[n]]
    plain = {k: v for k, v in block.items() if k != key}
    if own_rules:
        plain = _with(plain, key, own_rules)
    out = [(_at(block, playing), "")] if playing else []
    out.append((_at(plain, left), moot[left[0]] if left else reason))
    _check_block(out[-1][0], seed, folder, copies)
    return sorted(out, key=lambda part: min(_counts(part[0])))  # in the block's count order


def _moot(block: dict[str, Any], seed: int, folder: Path, copies: Mapping[str, str]) -> str:
    """Why the game refuses the block's rules as changing none of its games
    (:class:`~sims.core.errors.InertRuleError`), or ``""`` when it plays them."""
    try:
        _check_block(block, seed, folder, copies)
    except SlicelabError as exc:
        cause = _inert(exc)
        if cause is None:
            raise
        return str(cause).split(": ", 1)[-1].rsplit("; ", 1)[0]  # the reason, not the fix
    return ""


def _label(plan: BalancePlan, data_ref: str | None, rules: Mapping[str, Any]) -> str:
    parts = []
    if data_ref is not None:
        parts.append(f"{plan.data} {Path(data_ref).name}")
    if rules:
        parts.append(f"rules {rules_text(rules)}")
    return "; ".join(parts)


def _command(game, flag, data_ref, rule_items, size, seed, shipped, out) -> str:
    """The command that writes this study, run in the study's folder."""
    args = ["slicelab", "plan", game]
    if data_ref is not None:
        args += [flag, data_ref]
    for item in rule_items:
        args += ["--rule", item]
    if size is not None:
        args += ["--size", size]
    if seed != shipped["seed"]:
        args += ["--seed", str(seed)]
    args += ["--out", out.name]
    return " ".join(shlex.quote(a) for a in args)


def _header(
    title, plan, label, command, seed, size, factor, whatif, kept, out, derived, folder
) -> list[str]:
    lines = _comment(f"{title} balance study of a designer's variant: {label}.")
    lines += [
        "# Written by (in this file's folder; every path here is relative to it):",
        f"#   {command}",
    ]
    at = (
        (f" at its size {size!r} (every block's games x {factor:g}; this study declares no sizes)")
        if size
        else ""
    )
    lines += _comment(
        f"from the shipped {plan.study}{at}. Seed {seed}: every block shares it, so game i of "
        "every block is dealt the same (paired comparisons), and the data files derived from "
        "the variant's are drawn from it alone. Every block plays the variant, except where "
        "its comment says otherwise."
    )
    lines.append("#")
    lines += _comment(plan.robustness)
    if derived:
        where = sorted({_relative(p.parent, folder) for p in derived.values()})
        lines += _comment(
            f"The derived data files are in {', '.join(where)}/ (written with "
            "this study; move them with it)."
        )
    if kept:
        lines += _comment(f"Blocks keeping their own {plan.data}: {', '.join(kept)}.")
    if whatif:
        lines.append("#")
        lines += _comment(
            "What-if: the blocks whatif-default-* at the end replay blocks under the default "
            "rules, on the same deals; the rule change is each block minus its copy (the "
            "[variant] table's `compare` pairs them)."
        )
    stem = out.name
    lines += [
        "#",
        f"#   slicelab study {stem} --check",
        f"#   slicelab study {stem} --jobs 2" + ("" if size else " [--size quick]"),
        f"#   slicelab report {stem} --jobs 2" + ("" if size else " [--size quick]"),
    ]
    return lines


def write_plan(planned: Planned) -> list[Path]:
    """Write a planned study's data files, then the study (each atomically); return the
    paths written."""
    written = []
    for path, text in [*planned.files.items(), (planned.out, planned.text)]:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
        written.append(path)
    return written
