"""Caption documents of an episode: read, parse and expand to per-frame labels (spec §1.5).

The caption JSON (in ``annotation.hdf5`` or a file it names) lists segments (subtasks) with their
actions, sampled objects and interaction sentences, each referring to frames by name. They are
expanded to per-frame labels as the official toolkit (HT) does: ``resolve_captions`` → ``Captions``.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import h5py
import numpy as np

import robotask.episode.files.format as fmt

from ...errors import RobotaskError
from .format import decode_str, frame_stem


@dataclass
class Captions:
    """Per-frame caption labels resolved as the official toolkit does (spec §1.5)."""

    main_task: str
    theme: list[str]  # subtask label per frame ("" = none)
    action_label: list[str]
    action_desc: list[str]
    interaction: list[str]
    objects: list[list[str]]
    segments: list[tuple[int, int, str, int]]  # (start, end inclusive, theme, segment_id)
    task_to_id: dict[str, int]  # theme -> 1-based id in order of first appearance
    raw: dict = field(default_factory=dict, repr=False)  # the parsed JSON document

    @property
    def n_frames(self) -> int:
        """Number of frames the labels cover."""
        return len(self.theme)


class _FrameRefs:
    """Resolve caption frame references to indices as the official toolkit (HT) does."""

    def __init__(self, names: list[str]) -> None:
        self.exact = {n: i for i, n in enumerate(names)}
        self.lookup = dict(self.exact)
        for i, n in enumerate(names):
            self.lookup.setdefault(frame_stem(n), i)
        stems = [frame_stem(n) for n in names]
        self.numeric = np.array([int(s) if s.isdigit() else -1 for s in stems], dtype=np.int64)
        self.n = len(names)

    def by_name(self, ref: Any) -> int | None:
        """Exact or stem lookup."""
        return self.lookup.get(str(ref))

    def nearest(self, ref: Any) -> int | None:
        """Frame whose name-as-integer is nearest to an all-digit reference."""
        s = str(ref).strip()
        if not s.isdigit() or not (self.numeric >= 0).any():
            return None
        valid = np.flatnonzero(self.numeric >= 0)
        return int(valid[np.argmin(np.abs(self.numeric[valid] - int(s)))])

    def name_or_nearest(self, ref: Any) -> int | None:
        """Exact/stem lookup, else nearest timestamp."""
        i = self.by_name(ref)
        return self.nearest(ref) if i is None else i

    def segment(self, ref: Any) -> int | None:
        """Segment bound: a direct 0-based index if in range, else name, else nearest timestamp."""
        try:
            i = int(ref)
            if 0 <= i < self.n:
                return i
        except (TypeError, ValueError):
            pass
        return self.name_or_nearest(ref)


def _as_objects(value: Any) -> list[str]:
    """Objects of one frame as a list of strings."""
    if isinstance(value, list):
        return [str(v) for v in value]
    return [str(value)] if value else []


def parse_caption_document(text: str, where: str) -> dict:
    """Parse the caption JSON, or raise RobotaskError naming ``where`` and the JSON error."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RobotaskError(f"{where}: malformed caption JSON ({exc.msg} at line {exc.lineno} column "
                            f"{exc.colno})") from None
    if not isinstance(doc, dict):
        raise RobotaskError(f"{where}: caption JSON must be an object with 'segments', got {type(doc).__name__}")
    return doc


class _Resolver:
    """Expands the segments of one caption document into per-frame entries (the HT rules)."""

    def __init__(self, frame_names: list[str], where: str, strict: bool, stem_carry: bool = True) -> None:
        self.refs = _FrameRefs(frame_names)
        self.where, self.strict, self.stem_carry = where, strict, stem_carry
        self.info: dict[int, dict[str, Any]] = {}  # frame -> theme, action_label, action_desc, objects, interaction
        self.boundaries: list[tuple[int, int, str, int]] = []

    def unresolved(self, what: str, ref: Any) -> None:
        """Warn about (or, strict, raise on) a frame reference that names no frame."""
        msg = f"{self.where}: {what} frame reference {ref!r} matches no slam/frame_names entry"
        if self.strict:
            raise RobotaskError(msg)
        warnings.warn(msg + "; skipped", stacklevel=5)

    def actions(self, seg: dict, k: int) -> list[tuple[int, int, str, str]]:
        """The segment's resolvable actions (start, end, label, description), by start frame."""
        refs, actions = self.refs, []
        for a in seg.get("Current Action") or []:
            s_ref = a.get("start_frame_name", a.get("start_frame"))
            e_ref = a.get("end_frame_name", a.get("end_frame"))
            si, ei = refs.by_name(str(s_ref)), refs.by_name(str(e_ref))
            if (si is None or ei is None) and str(s_ref).strip().isdigit():
                si = refs.nearest(s_ref) if si is None else si
                ei = refs.nearest(e_ref) if ei is None else ei
            if si is None or ei is None:
                self.unresolved(f"segments[{k}] action {a.get('label', '')!r}", s_ref if si is None else e_ref)
                continue
            actions.append((si, ei, str(a.get("label", "") or ""), str(a.get("description", "") or "")))
        actions.sort(key=lambda x: x[0])
        return actions

    def notes(self, seg: dict, k: int, theme: str, touched: list[int]) -> dict[str, dict[int, Any]]:
        """Record the segment's sampled objects / interaction; returns those that carry forward.

        Keys that name a frame exactly carry forward; so do keys that name it without its image
        extension (``stem_carry``). Nearest-timestamp matches apply to their frame only.
        """
        exact: dict[str, dict[int, Any]] = {"objects": {}, "interaction": {}}
        for key_name, conv in (("objects", _as_objects), ("interaction", lambda v: str(v or ""))):
            for ref, value in (seg.get(key_name) or {}).items():
                i = self.refs.name_or_nearest(ref)
                if i is None:
                    self.unresolved(f"segments[{k}] {key_name}", ref)
                    continue
                entry = self.info.setdefault(i, {})
                entry[key_name] = conv(value)
                entry.setdefault("theme", theme)
                touched.append(i)
                if ref in self.refs.exact or (self.stem_carry and str(ref) in self.refs.lookup):
                    exact[key_name][i] = conv(value)
        return exact

    def segment(self, seg: dict, k: int) -> None:
        """Apply one segment: its actions, notes, bounds and the fill of its frames."""
        theme = str(seg.get("Sub Task", "") or "")
        seg_id = int(seg.get("segment_id", k)) if str(seg.get("segment_id", k)).lstrip("-").isdigit() else k
        touched: list[int] = []
        actions = self.actions(seg, k)
        for si, ei, label, desc in actions:
            for i in range(si, ei + 1):
                self.info.setdefault(i, {}).update(theme=theme, action_label=label, action_desc=desc)
            touched += [si, ei]
        exact = self.notes(seg, k, theme, touched)
        s0, s1 = self.refs.segment(seg.get("start_frame")), self.refs.segment(seg.get("end_frame"))
        if s0 is None:
            s0 = min(touched) if touched else None
        if s1 is None:
            s1 = max(touched) if touched else None
        if s0 is None or s1 is None:
            self.unresolved(f"segments[{k}] bounds", seg.get("start_frame") if s0 is None else seg.get("end_frame"))
            return
        self.fill(s0, s1, theme, actions, exact)
        self.boundaries.append((s0, s1, theme, seg_id))

    def fill(self, s0: int, s1: int, theme: str, actions: list, exact: dict[str, dict[int, Any]]) -> None:
        """Frames of the segment without an action take the last earlier action; notes carry forward."""
        for i in range(s0, s1 + 1):
            entry = self.info.setdefault(i, {})
            if not entry.get("action_label") and actions:
                before = [a for a in actions if a[1] < i]
                si, ei, label, desc = before[-1] if before else actions[0]
                entry.update(theme=entry.get("theme") or theme, action_label=label, action_desc=desc)
            for key_name, store in exact.items():
                if key_name not in entry:
                    prior = [j for j in store if s0 <= j <= i]
                    if prior:
                        entry[key_name] = store[max(prior)]

    def per_frame(self, n: int) -> tuple[list[str], list[str], list[str], list[str], list[list[str]]]:
        """Theme, action label, action description (carried forward), interaction and objects per frame."""
        theme, label, desc, inter, objects = [], [], [], [], []
        prev = {"theme": "", "action_label": "", "action_desc": ""}
        for i in range(n):
            entry = self.info.get(i, {})
            for key in prev:
                if entry.get(key):
                    prev[key] = entry[key]
            theme.append(prev["theme"])
            label.append(prev["action_label"])
            desc.append(prev["action_desc"])
            inter.append(str(entry.get("interaction", "") or ""))
            objects.append(list(entry.get("objects", [])))
        return theme, label, desc, inter, objects


def task_ids(theme: list[str]) -> dict[str, int]:
    """Subtask (theme) -> 1-based id in order of first appearance."""
    out: dict[str, int] = {}
    for t in theme:
        if t and t not in out:
            out[t] = len(out) + 1
    return out


def resolve_captions(doc: dict, frame_names: list[str], where: str = "caption",
                     strict: bool = False, stem_carry: bool = True) -> Captions:
    """Expand a caption document to per-frame labels and segments (spec §1.5, HT rules).

    Parameters
    ----------
    doc : parsed caption JSON.
    frame_names : ``slam/frame_names`` of the episode.
    where : file/key named in warnings and errors.
    strict : raise RobotaskError on an unresolvable frame reference instead of warning and skipping it.
    stem_carry : objects / interaction keyed by a frame name without its extension carry forward like
        exact names (True, the issue's reading of the official toolkit); False keeps such values on
        their own frame only (spec §1.5's description of HT: "only exact-name keys count for this fill").
    """
    resolver = _Resolver(frame_names, where, strict, stem_carry)
    segments = doc.get("segments") or []
    if not isinstance(segments, list):
        raise RobotaskError(f"{where}: 'segments' must be a list, got {type(segments).__name__}")
    for k, seg in enumerate(segments):
        if not isinstance(seg, dict):
            raise RobotaskError(f"{where}: segments[{k}] must be an object")
        resolver.segment(seg, k)
    theme, label, desc, inter, objects = resolver.per_frame(len(frame_names))
    config = doc.get("config") or {}
    main_task = str(config.get("Main Task", "") if isinstance(config, dict) else "")
    return Captions(main_task, theme, label, desc, inter, objects, resolver.boundaries, task_ids(theme), raw=doc)


def _strict_text(value: Any, where: str) -> str:
    """A stored string decoded as strict UTF-8, or RobotaskError naming ``where`` and the bad byte."""
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0] if value.size else b""
    if isinstance(value, (bytes, np.bytes_)):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RobotaskError(f"{where}: not valid UTF-8 (byte 0x{exc.object[exc.start]:02x} at position "
                                f"{exc.start}); expected UTF-8 JSON text") from None
    return decode_str(value)


def _caption_file(folder: Path, name: str, where: str) -> Path:
    """The caption file a dataset names, which must be a relative path inside the episode folder.

    The name comes from inside the file, so it is untrusted: an absolute path or one that leaves the
    folder (``../``) is refused rather than opened.
    """
    candidate = Path(name)
    inside = (folder / candidate).resolve()
    if candidate.is_absolute() or not inside.is_relative_to(folder.resolve()):
        raise RobotaskError(f"{where} names the caption file {name[:80]!r}, outside the episode folder; expected a "
                            "relative path inside it")
    return folder / candidate


def read_caption_text(f: h5py.File, folder: Path) -> tuple[str, str] | None:
    """The caption JSON text and where it came from, or None when the episode has no caption."""
    for key in fmt.CAPTION_KEYS:
        if key in f:
            text = _strict_text(f[key][()], f"{f.filename}:{key}").strip()
            if not text:
                return None
            if text.startswith("{"):
                return text, f"{f.filename}:{key}"
            p = _caption_file(folder, text, f"{f.filename}:{key}")
            if not p.is_file():
                raise RobotaskError(f"{f.filename}:{key} holds neither JSON nor the path of an existing file "
                                    f"({text[:80]!r})")
            return p.read_text(encoding="utf-8"), str(p)
    return None
