"""AdamW (Loshchilov & Hutter, ICLR 2019) in plain tensor operations, for the MLP head (``mlp.py``).

Why not ``torch.optim.AdamW``: its constructor, ``zero_grad`` and ``step`` are wrapped so that they
import the ``torch._dynamo`` compiler stack on first use, which costs 4–6 s per process on this
machine. The MLP head runs once per task chapter, so that import cost more than the training at
smoke scale. The update below is the same algorithm with decoupled weight decay, with the operations
applied in the order PyTorch's single-tensor CPU path applies them, so the weights agree bit for bit
(``tests/test_episode_mlp.py`` checks this against ``torch.optim.AdamW``).

Per parameter p with gradient g, at step t (from 1):

    p ← p · (1 − lr·wd)
    m ← m + (g − m)·(1 − β₁)
    v ← v·β₂ + (1 − β₂)·g²
    p ← p − lr / (1 − β₁ᵗ) · m / (√v / √(1 − β₂ᵗ) + ε)
"""

from __future__ import annotations

from typing import Any, Iterable


class AdamW:
    """The AdamW update over a fixed list of parameters (no parameter groups, no AMSGrad)."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2):
        import torch

        self.params = [p for p in params if p.requires_grad]
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.exp_avg = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.exp_avg_sq = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in self.params]
        self.steps = [0] * len(self.params)

    def zero_grad(self) -> None:
        """Forget the gradients (set them to None, as ``set_to_none=True`` does)."""
        for p in self.params:
            p.grad = None

    def step(self) -> None:
        """One update of every parameter that has a gradient."""
        import torch

        beta1, beta2 = self.betas
        with torch.no_grad():
            for i, p in enumerate(self.params):
                if p.grad is None:
                    continue
                grad, m, v = p.grad, self.exp_avg[i], self.exp_avg_sq[i]
                self.steps[i] += 1
                t = float(self.steps[i])
                if self.weight_decay != 0:
                    p.mul_(1 - self.lr * self.weight_decay)
                m.lerp_(grad, 1 - beta1)
                v.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                step_size = self.lr / (1 - beta1 ** t)
                denom = (v.sqrt() / (1 - beta2 ** t) ** 0.5).add_(self.eps)
                p.addcdiv_(m, denom, value=-step_size)
