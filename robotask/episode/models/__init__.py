"""The learned heads: the minimal heads (``minimal``: softmax, dual ridge, multi-label), the MLP (``mlp``),
its input block (``mlp_input``) and its AdamW step (``adamw``)."""

from .minimal import SOFTMAX_EPOCHS, MultiLabelHead, SoftmaxHead, ZScaler, fit_dual_ridge
from .mlp import MLPConfig, n_parameters, train_mlp

__all__ = [
    "MLPConfig", "MultiLabelHead", "SOFTMAX_EPOCHS", "SoftmaxHead", "ZScaler", "fit_dual_ridge", "n_parameters",
    "train_mlp",
]
