"""The learned heads: the minimal heads (``minimal``: softmax, dual ridge, multi-label), the MLP (``mlp``),
its input block (``mlp_input``) and its AdamW step (``adamw``)."""

from .minimal import SOFTMAX_EPOCHS, MultiLabelHead, SoftmaxHead, ZScaler, fit_dual_ridge
from .mlp import MLPConfig, build_mlp, n_parameters, train_mlp

__all__ = [
    "SOFTMAX_EPOCHS",
    "MultiLabelHead",
    "SoftmaxHead",
    "ZScaler",
    "fit_dual_ridge",
    "MLPConfig",
    "build_mlp",
    "n_parameters",
    "train_mlp",
]
