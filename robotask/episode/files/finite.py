"""Non-finite values in an annotation file (NaN, inf): what each kind becomes, with one warning each.

Poses get the identity, IMU samples are interpolated from their finite neighbours, depth pixels read as
0 (no depth), and an infinite mocap coordinate counts as NaN (the frame is invalid, as the loader
already treats NaN). Features never see a non-finite value.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from ...errors import RobotaskWarning
from . import format as fmt


def finite_poses(ann: Path, quat: np.ndarray, trans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Poses with NaN/inf frames replaced by the identity (warns with the count per dataset)."""
    for key, arr, neutral in ((fmt.SLAM_QUAT, quat, np.array([1.0, 0, 0, 0])), (fmt.SLAM_TRANS, trans, np.zeros(3))):
        bad = ~np.isfinite(arr).all(axis=1)
        if bad.any():
            warnings.warn(RobotaskWarning(
                f"{ann}: {key} has NaN or inf in {int(bad.sum())} of {len(arr)} frames (first {int(np.argmax(bad))}); "
                "those frames get the identity pose "
                f"({'quaternion 1, 0, 0, 0' if key == fmt.SLAM_QUAT else 'zero translation'})"),
                stacklevel=4)
            arr[bad] = neutral
    return quat, trans


def inf_as_nan(arrays: dict[str, np.ndarray | None]) -> dict[str, np.ndarray | None]:
    """The mocap ``arrays`` with every infinite coordinate set to NaN (in place): as unknown as a NaN."""
    for arr in arrays.values():
        if arr is not None and arr.dtype.kind == "f":
            arr[np.isinf(arr)] = np.nan
    return arrays


def zero_non_finite_depth(depth: np.ndarray, start: int, ann: Path, warned: bool) -> bool:
    """Set NaN/inf pixels of a depth chunk (frames from ``start``) to 0, no depth; warn once per read
    (``warned``: already warned). Return whether a warning has now been given."""
    bad = ~np.isfinite(depth)
    if not bad.any():
        return warned
    if not warned:
        first = start + int(np.argmax(bad.reshape(len(depth), -1).any(axis=1)))
        warnings.warn(RobotaskWarning(f"{ann}: {fmt.DEPTH} has NaN or inf values (first in frame {first}); "
                                      "they are read as 0, no depth"), stacklevel=3)
    depth[bad] = 0.0
    return True


def interpolate_non_finite(arr: np.ndarray, where: str) -> None:
    """Replace, in place, the samples (rows) of ``arr`` holding NaN or inf by linear interpolation between
    the nearest finite samples (zeros when none is finite), with one warning naming ``where`` and the count."""
    bad = ~np.isfinite(arr).all(axis=1)
    if not bad.any():
        return
    warnings.warn(RobotaskWarning(f"{where} has NaN or inf in {int(bad.sum())} of {len(arr)} samples (first "
                                  f"{int(np.argmax(bad))}); they are interpolated from the finite samples around "
                                  "them"), stacklevel=4)
    good = np.flatnonzero(~bad)
    if not len(good):
        arr[:] = 0.0
        return
    rows = np.flatnonzero(bad)
    for axis in range(arr.shape[1]):
        arr[rows, axis] = np.interp(rows, good, arr[good, axis])
