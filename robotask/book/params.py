"""Notebook parameters: read the ``parameters`` cell, load named sets, validate before running.

A notebook's parameters cell holds annotated literals only::

    seed: int = 413  # NumPy generator seed

:func:`declared` reads those from the percent source with ``ast`` (nothing is executed), and
:func:`resolve` checks every supplied value against them, so a typo, a wrong type or a value out of
its range is rejected before a kernel starts. The ranges (:class:`robotask.parameters.Range`, keyed by
parameter name across all notebooks, or by ``"CHAPTER:NAME"`` for one notebook's own rule, :func:`rule`) are the
studies' own: each wing declares its table (``robotask.<wing>.parameters.RANGES``) and the caller passes them in
(``ranges=``); this wing imports no study.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .. import paths
from ..errors import RobotaskError
from ..io import writable_dir
from ..parameters import Range, Ranges
from . import chapters as chapters_mod

SETS = ("paper", "smoke")

_CELL = re.compile(r"^# %%.*tags=\[[^\]]*\"parameters\"[^\]]*\].*$", re.M)
_NEXT = re.compile(r"^# %%", re.M)


@dataclass(frozen=True)
class Param:
    """One declared parameter: name, annotation text, default value and help comment."""

    name: str
    annotation: str
    default: Any
    help: str


def parameters_source(source: Path) -> str:
    """Return the code of the single ``parameters`` cell of a percent-format notebook."""
    text = Path(source).read_text()
    cells = list(_CELL.finditer(text))
    if len(cells) != 1:
        raise RobotaskError(f"{source}: expected exactly one '# %% tags=[\"parameters\"]' cell, found {len(cells)}")
    start = cells[0].end()
    nxt = _NEXT.search(text, start)
    return text[start: nxt.start() if nxt else len(text)]


def declared(source: Path) -> dict[str, Param]:
    """Parse the parameters cell of ``source`` into ``{name: Param}``."""
    code = parameters_source(source)
    lines = code.splitlines()
    out: dict[str, Param] = {}
    for node in ast.parse(code).body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value):
            raise RobotaskError(f"{source}: the parameters cell may hold only annotated literals "
                                f"('name: type = value  # help'), line {getattr(node, 'lineno', '?')}")
        try:
            default = ast.literal_eval(node.value)
        except ValueError as exc:
            raise RobotaskError(f"{source}: parameter {node.target.id!r} must have a literal default") from exc
        line = lines[node.lineno - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        out[node.target.id] = Param(node.target.id, ast.unparse(node.annotation), default, comment)
    return out


def rule(ranges: Ranges, chapter: str | None, name: str) -> Range | None:
    """The rule of parameter ``name`` in notebook ``chapter``: the chapter's own (key ``"CHAPTER:NAME"``, e.g. the
    rankers chapter 02 must hold) or else the one every notebook shares (key ``NAME``), if any."""
    own = f"{chapter}:{name}"
    return ranges[own] if own in ranges else ranges.get(name)


def _check_type(param: Param, value: Any, where: str, ranges: Ranges, chapter: str | None = None) -> Any:
    """Return ``value`` converted to the parameter's type and checked against its rule in ``ranges`` (if any; the
    rule of notebook ``chapter`` when it has its own, :func:`rule`), or raise a clear error."""
    ann = param.annotation.replace(" ", "")
    if value is None:
        if "None" in ann or param.default is None:
            return None
        raise RobotaskError(f"{where}: parameter {param.name!r} may not be None (expected {param.annotation})")
    base = ann.split("|")[0].split("[")[0]
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "list": isinstance(value, list),
        "dict": isinstance(value, dict),
    }.get(base, True)
    if not ok:
        hint = (" (write a YAML list: -p NAME '[a, b]' with robotask run, or -y 'NAME: [a, b]' "
                "with papermill)") if base == "list" and isinstance(value, str) else ""
        raise RobotaskError(f"{where}: parameter {param.name!r} expects {param.annotation}, "
                            f"got {type(value).__name__} {value!r}{hint}")
    value = float(value) if base == "float" else value
    declared_rule = rule(ranges, chapter, param.name)
    if declared_rule is not None:
        declared_rule.check(param.name, value, where)
    return value


MAX_YAML_BYTES = 1 << 20
"""The largest parameter file or ``-p`` value read (1 MiB; the study's own files are under 1 kB)."""
MAX_YAML_ALIASES = 16
"""The most YAML aliases (``*name``) a parameter file or value may hold: parameters need none, and a few
nested anchors (an "alias bomb") expand to billions of values once the parameters are copied or written."""


def safe_yaml(text: str, where: str) -> Any:
    """``yaml.safe_load(text)`` after refusing, with a :class:`RobotaskError` naming ``where``, a text over
    :data:`MAX_YAML_BYTES` or with more than :data:`MAX_YAML_ALIASES` aliases (counted on the event stream,
    before anything is built). Invalid YAML raises ``yaml.YAMLError`` as ``safe_load`` does."""
    size = len(text.encode(errors="surrogateescape"))
    if size > MAX_YAML_BYTES:
        raise RobotaskError(f"{where} holds {size} bytes; expected at most {MAX_YAML_BYTES} (1 MiB) of parameters")
    aliases = sum(isinstance(event, yaml.AliasEvent) for event in yaml.parse(text, Loader=yaml.SafeLoader))
    if aliases > MAX_YAML_ALIASES:
        raise RobotaskError(f"{where} holds {aliases} YAML aliases (*name); expected at most {MAX_YAML_ALIASES}: "
                            "parameters need none, and nested aliases expand to billions of values")
    return yaml.safe_load(text)


def parse_cli_value(text: str, where: str = "-p") -> Any:
    """Interpret a ``-p name value`` string as YAML (``3`` → int, ``[a, b]`` → list, ``x`` → str)."""
    try:
        return safe_yaml(text, where)
    except yaml.YAMLError:
        return text


def load_yaml(path: Path) -> dict[str, Any]:
    """Read a YAML mapping, with a clear error for a missing file, a non-mapping, text that is not UTF-8,
    or a file too large or with too many aliases (:func:`safe_yaml`)."""
    path = Path(path)
    if not path.is_file():
        raise RobotaskError(f"parameter file {path} does not exist")
    if path.stat().st_size > MAX_YAML_BYTES:
        raise RobotaskError(f"parameter file {path} holds {path.stat().st_size} bytes; expected at most "
                            f"{MAX_YAML_BYTES} (1 MiB) of parameters")
    try:
        data = safe_yaml(path.read_text(encoding="utf-8"), f"parameter file {path}") or {}
    except UnicodeDecodeError as exc:
        raise RobotaskError(f"parameter file {path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                            f"offset {exc.start})") from None
    except yaml.YAMLError as exc:
        raise RobotaskError(f"parameter file {path} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise RobotaskError(f"parameter file {path} must hold a mapping of parameter names to values "
                            f"(name: value lines), got {type(data).__name__} {str(data)[:40]!r}")
    return data


def set_file(set_name: str, chapter_id: str, source: str) -> Path | None:
    """The file of parameter set ``set_name`` for a chapter (by chapter id, then by source stem)."""
    if set_name not in SETS:
        raise RobotaskError(f"unknown parameter set {set_name!r}; expected one of: {', '.join(SETS)}")
    for stem in (chapter_id, source):
        path = paths.PARAMS / set_name / f"{stem}.yaml"
        if path.is_file():
            return path
    return None


def resolve(source: Path, layers: list[tuple[str, dict[str, Any]]], strict: bool = True, *,
            ranges: Ranges) -> dict[str, Any]:
    """Merge parameter ``layers`` (later wins) and validate each value against ``source`` and ``ranges``.

    Each layer is ``(where, mapping)``; ``where`` names the file or flag in error messages.
    With ``strict=False`` names the notebook does not declare are skipped (used for values
    given once for several notebooks; the caller checks that each name is declared somewhere).
    """
    decl = declared(source)
    merged: dict[str, Any] = {}
    for where, mapping in layers:
        for name, value in mapping.items():
            if name not in decl:
                if strict:
                    raise RobotaskError(f"{where}: unknown parameter {name!r} for {Path(source).name}; "
                                        f"declared: {', '.join(decl)}")
                continue
            merged[name] = _check_type(decl[name], value, where, ranges, Path(source).stem)
    return merged


def plan(selected: list[chapters_mod.Chapter], set_name: str, params_file: str | None,
         overrides: dict[str, Any], *, ranges: Ranges) -> list[tuple[chapters_mod.Chapter, dict[str, Any]]]:
    """Resolve and validate the parameters of every selected chapter before anything runs.

    ``ranges``: the allowed range of each numeric parameter, the studies' tables merged by the
    caller (:func:`robotask.cli.parameter_ranges`); this wing imports no study.
    """
    file_params: dict[str, Any] = load_yaml(Path(params_file)) if params_file else {}
    ids = {c.id for c in chapters_mod.CHAPTERS} | {c.source for c in chapters_mod.CHAPTERS}
    per_chapter = bool(file_params) and all(k in ids for k in file_params)
    shared = {} if per_chapter else file_params
    known: set[str] = set()
    for chapter in selected:
        known |= set(declared(chapter.source_path))
    for where, mapping in ((str(params_file), shared), ("-p", overrides)):
        unknown = sorted(set(mapping) - known)
        if unknown:
            noun = "parameter" if len(unknown) == 1 else "parameters"
            raise RobotaskError(f"{where}: unknown {noun} {', '.join(unknown)} for the selected "
                                f"notebooks; declared: {', '.join(sorted(known))}")
    planned = []
    for chapter in selected:
        layers: list[tuple[str, dict[str, Any]]] = []
        set_path = set_file(set_name, chapter.id, chapter.source)
        if set_path:
            layers.append((f"params/{set_name}/{set_path.name}", load_yaml(set_path)))
        if per_chapter:
            for key in (chapter.source, chapter.id):
                layers.append((f"{params_file} [{key}]", file_params.get(key) or {}))
        resolved = resolve(chapter.source_path, layers, strict=True, ranges=ranges)
        resolved.update(resolve(chapter.source_path, [(str(params_file), shared), ("-p", overrides)],
                                           strict=False, ranges=ranges))
        resolved.update(resolve(chapter.source_path, [("chapter manifest", chapter.fixed)],
                                           ranges=ranges))
        if resolved.get("output_dir"):
            writable_dir(paths.resolve(resolved["output_dir"]), f"parameter 'output_dir' of {chapter.id}:")
        planned.append((chapter, resolved))
    return planned


def check_selection(names: list[str], run_all: bool, overridden: list[str]) -> None:
    """Refuse ``robotask run -p …`` with no chapter named and no ``--all``: it would run every chapter."""
    if overridden and not names and not run_all:
        given = " ".join(f"-p {name} …" for name in dict.fromkeys(overridden))
        raise RobotaskError(f"robotask run {given} names no chapter, so it would run every chapter with these "
                            f"values: name the chapters (e.g. robotask run 02_five_rankers {given}) or add --all")


def listing(source: Path, set_name: str, chapter_id: str, stem: str) -> list[str]:
    """The lines of ``robotask run --list --set SET`` for one chapter: each parameter with the value the set gives
    it (and the notebook's default beside it when they differ), its type and help."""
    path = set_file(set_name, chapter_id, stem)
    values = load_yaml(path) if path else {}
    lines = [f"{chapter_id}  (set {set_name}: {f'params/{set_name}/{path.name}' if path else 'the defaults'})"]
    for param in declared(source).values():
        value = values.get(param.name, param.default)
        default = f"  (default {param.default!r})" if value != param.default else ""
        lines.append(f"    {param.name}: {param.annotation} = {value!r}{default}  # {param.help}")
    return lines
