"""The MLP's input block, LayerNorm(d) → Linear(d, h), as the training loop of ``mlp.py`` computes it.

The block's function and parameters are PyTorch's (``model[0]``, ``model[1]``); only the arithmetic is
arranged for a wide input (d up to 25,638 on temporal order, against h = 128 and batches of 128):

* the LayerNorm's normalisation depends on the input row alone, so x̂ = (x − mean) / √(var + ε) is
  computed once for the training set instead of once per step;
* its affine part folds into the Linear: Linear(x̂ ⊙ γ + β) = x̂ Fᵀ + (c + b) with F = W ⊙ γ, c = W β;
* the backward pass needs no gradient with respect to the d-wide input, so each step makes two
  (batch × d × h) products instead of three, and the gradients of W, γ, β and b follow from
  G = δᵀ x̂ (δ the gradient at the block's output, s = Σ rows of δ):

      ∂W = G ⊙ γ + s βᵀ,   ∂γ = Σₖ Wₖ ⊙ Gₖ,   ∂β = Wᵀ s,   ∂b = s;

* those gradients, the AdamW update of W, γ and β, and F and c for the next step are computed in one
  pass over the (h × d) arrays by a small C kernel (``mlp_kernel.c``): written as tensor operations they
  were a dozen passes over memory, which on the widest task cost more than the two products.

The bias b and the layers above the block keep PyTorch's autograd and the fused AdamW of ``adamw.py``,
with the same hyperparameters. The results equal the layer-by-layer computation to rounding (tested).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .mlp_kernel import LANES, input_block_step

if TYPE_CHECKING:  # annotations only
    import torch
    from torch import nn


class FoldedInput:
    """Forward of ``model[0:2]`` on rows of a fixed training matrix, and the AdamW step of W, γ and β."""

    def __init__(self, model: "nn.Sequential", x: "torch.Tensor", lr: float, weight_decay: float,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8):
        import torch

        self.norm, self.first = model[0], model[1]
        self.x_hat = torch.nn.functional.layer_norm(x, self.norm.normalized_shape, None, None, self.norm.eps)
        self.lr, self.weight_decay, self.betas, self.eps = lr, weight_decay, betas, eps
        w = self.first.weight
        with torch.no_grad():
            self._folded = torch.mul(w, self.norm.weight)
            self._shift = torch.mv(w, self.norm.bias)
        self._grad = torch.empty_like(self._folded)
        self._moments = [torch.zeros_like(self._folded) for _ in range(2)]
        self._norm_moments = [torch.zeros_like(self.norm.weight.detach()) for _ in range(4)]
        self._lanes = torch.zeros(w.shape[0], LANES)
        self._rows = torch.empty(0)
        self._batch = self.x_hat[:0]
        self.steps = 0

    @property
    def parameters(self) -> list["torch.Tensor"]:
        """W, γ and β: the parameters :meth:`step` updates (the optimizer of the rest leaves them out)."""
        return [self.first.weight, self.norm.weight, self.norm.bias]

    def forward(self, idx: "torch.Tensor") -> "torch.Tensor":
        """The block's output for training rows ``idx``, a leaf whose ``grad`` feeds :meth:`step`."""
        import torch

        if len(self._rows) < len(idx):
            self._rows = torch.empty(len(idx), self.x_hat.shape[1])
        self._batch = torch.index_select(self.x_hat, 0, idx, out=self._rows[:len(idx)])
        with torch.no_grad():
            out = torch.addmm(self._shift + self.first.bias, self._batch, self._folded.t())
        return out.requires_grad_()

    def step(self, out: "torch.Tensor") -> None:
        """From the gradient that reached ``out``: AdamW on W, γ and β, and ``b.grad`` = s for the optimizer."""
        import torch

        delta = out.grad
        with torch.no_grad():
            s = delta.sum(0)
            torch.mm(delta.t(), self._batch, out=self._grad)
            self.first.bias.grad = s
            self.steps += 1
            beta1, beta2 = self.betas
            hyper = (1.0 - self.lr * self.weight_decay, beta1, beta2, self.lr / (1.0 - beta1 ** self.steps),
                     math.sqrt(1.0 - beta2 ** self.steps), self.eps)
            w, gamma, beta = (p.detach() for p in self.parameters)
            input_block_step([w, self._grad, *self._moments, self._folded, gamma, beta, *self._norm_moments,
                              s, self._lanes], hyper)
            self._shift = self._lanes.sum(1)
