"""The §6 MLP: architecture, size and bit-identical reruns."""

from __future__ import annotations

import numpy as np

from robotask.episode.models.mlp import MLPConfig, build_mlp, n_parameters, train_mlp


def test_architecture_and_parameter_count():
    model = build_mlp(8546, 18, MLPConfig())
    kinds = [type(m).__name__ for m in model]
    assert kinds == ["LayerNorm", "Linear", "GELU", "Dropout", "Linear", "GELU", "Dropout", "Linear"]
    # LayerNorm 2d + (d·128 + 128) + (128·128 + 128) + (128·18 + 18) ≈ 1.1 M (spec §6)
    assert n_parameters(model) == 2 * 8546 + 8546 * 128 + 128 + 128 * 128 + 128 + 128 * 18 + 18
    assert 1.0e6 < n_parameters(model) < 1.15e6


def _toy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 20)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    return x, y


def test_two_runs_are_identical():
    x, y = _toy()
    cfg = MLPConfig(epochs=5, batch_size=64)
    a = train_mlp(x, y, "classifier", 2, cfg)
    b = train_mlp(x, y, "classifier", 2, cfg)
    assert a.history == b.history
    assert np.array_equal(a.predict(x), b.predict(x))
    assert a.history[-1]["train_accuracy"] > 0.8


def test_early_stopping_restores_best_epoch():
    x, y = _toy()
    y = np.where(np.random.default_rng(1).random(len(y)) < 0.3, 1 - y, y)  # noisy labels: validation loss turns up
    cfg = MLPConfig(epochs=60, batch_size=64, patience=3)
    res = train_mlp(x[:200], y[:200], "classifier", 2, cfg, x_val=x[200:], y_val=y[200:])
    last = res.history[-1]["epoch"]
    assert "val_loss" in res.history[0]
    assert res.best_epoch < last  # training went on past the best epoch, then stopped
    # the same (deterministic) training stopped at the best epoch has the weights the early-stopped model returns
    ref = train_mlp(x[:200], y[:200], "classifier", 2, MLPConfig(epochs=res.best_epoch, batch_size=64, patience=3))
    assert np.array_equal(res.predict(x), ref.predict(x))
    for a, b in zip(res.model.state_dict().values(), ref.model.state_dict().values()):
        assert np.array_equal(a.numpy(), b.numpy())


def test_regressor_and_multilabel_run():
    x, _ = _toy()
    res = train_mlp(x, x[:, :3].copy(), "regressor", 3, MLPConfig(epochs=3))
    assert res.predict(x).shape == (300, 3)
    yy = (x[:, :2] > 0).astype(np.float32)
    res = train_mlp(x, yy, "multilabel", 2, MLPConfig(epochs=3), pos_weight=np.ones(2, np.float32))
    assert res.predict(x).shape == (300, 2)


def test_adamw_matches_torch_optim_adamw_bit_for_bit():
    """Our AdamW (no compiler-stack import) gives exactly the weights torch.optim.AdamW(fused=True)
    gives, and the single-tensor AdamW's weights to rounding."""
    import torch

    from robotask.episode.models.adamw import AdamW

    def train(make_opt):
        torch.manual_seed(3)
        model = build_mlp(12, 4, MLPConfig(hidden_dim=16))
        opt = make_opt(model.parameters())
        x, y = torch.randn(64, 12), torch.randint(0, 4, (64,))
        for _ in range(25):
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        return [p.detach().clone() for p in model.parameters()]

    ours = train(lambda p: AdamW(p, lr=1e-2, weight_decay=1e-4))
    theirs = train(lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=1e-4, fused=True))
    assert all(torch.equal(a, b) for a, b in zip(ours, theirs))
    unfused = train(lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=1e-4, foreach=False))
    assert all(torch.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(ours, unfused))


def test_folded_input_block_matches_layer_by_layer_autograd():
    """The training loop's input block (normalisation once, affine part folded into the Linear, no
    gradient for the input) gives PyTorch's LayerNorm → Linear outputs and gradients to rounding."""
    import torch

    from robotask.episode.models.mlp_input import FoldedInput

    torch.manual_seed(0)
    model = build_mlp(300, 3, MLPConfig(hidden_dim=16))
    with torch.no_grad():  # a non-trivial affine part (γ = 1, β = 0 at init would hide a wrong fold)
        model[0].weight.uniform_(0.5, 1.5)
        model[0].bias.normal_()
    x = torch.randn(50, 300) * 3 + 1
    idx = torch.tensor([4, 17, 3, 40, 4, 0])
    upstream = torch.randn(len(idx), 16)

    ref = model[1](model[0](x[idx]))
    (ref * upstream).sum().backward()
    expected = [p.grad.clone() for p in model[:2].parameters()]
    model.zero_grad(set_to_none=True)

    block = FoldedInput(model, x)
    for _ in range(2):  # the second pass reuses the buffers
        out = block.forward(idx)
        (out * upstream).sum().backward()
        block.backward(out)
        assert torch.allclose(out, ref, rtol=1e-5, atol=1e-5)
        for got, want in zip(model[:2].parameters(), expected):
            assert torch.allclose(got.grad, want, rtol=1e-4, atol=1e-4)



def test_panelled_backward_gives_the_whole_matrix_gradients_bit_for_bit():
    """The input block's backward pass forms G = δᵀ x̂ a panel of columns at a time; its gradients are the
    bits of the whole-matrix computation (the oracle below), for a width of two panels and a short tail and for
    a full, a partial and a tiny batch."""
    import torch

    from robotask.episode.models.mlp_input import PANEL, FoldedInput

    torch.set_num_threads(1)
    torch.manual_seed(3)
    d = 2 * PANEL + 37
    model = build_mlp(d, 2, MLPConfig())
    with torch.no_grad():
        model[0].weight.uniform_(0.5, 1.5)
        model[0].bias.normal_()
    block = FoldedInput(model, torch.randn(200, d) * 2 + 1)
    for rows in (128, 57, 3):
        idx = torch.randperm(200)[:rows]
        out = block.forward(idx)
        (out * torch.randn(rows, 128)).sum().backward()
        block.backward(out)
        got = [p.grad.clone() for p in model[:2].parameters()]
        delta, x_hat = out.grad, block.x_hat[idx]
        w, gamma, beta = model[1].weight, model[0].weight, model[0].bias
        with torch.no_grad():  # HEAD's whole-matrix backward
            s, g = delta.sum(0), torch.mm(delta.t(), x_hat)
            want = [torch.mul(w, g).sum(0), torch.mv(w.t(), s), g.mul(gamma).addr_(s, beta), s]
        assert all(torch.equal(a, b) for a, b in zip(got, want))

def test_training_equals_the_layer_by_layer_network_to_rounding():
    """train_mlp (folded input block) against the same training written with model(x) and autograd."""
    import torch

    from robotask.episode.models.adamw import AdamW

    x, y = _toy()
    cfg = MLPConfig(epochs=4, batch_size=64)
    got = train_mlp(x, y, "classifier", 2, cfg)
    torch.manual_seed(cfg.seed)
    model = build_mlp(x.shape[1], 2, cfg)
    opt = AdamW(model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        order = torch.randperm(len(xt), generator=torch.Generator().manual_seed(cfg.seed + epoch))
        for s in range(0, len(order), cfg.batch_size):
            idx = order[s:s + cfg.batch_size]
            loss = torch.nn.functional.cross_entropy(model(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    for a, b in zip(got.model.parameters(), model.parameters()):
        assert torch.allclose(a, b, rtol=1e-4, atol=1e-5)
