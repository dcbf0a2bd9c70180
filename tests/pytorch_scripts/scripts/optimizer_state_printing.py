"""What people print when they debug training state: optimizer.state_dict() and param_groups (with
their defaults: foreach, maximize, capturable, differentiable, fused), the per-parameter state after
a step (step counters, exp_avg, momentum_buffer), add_param_group, schedulers' state_dict, the
optimizer repr, model.state_dict() keys and an OrderedDict of tensors, and a full checkpoint
round trip through torch.save / torch.load on a BytesIO with map_location and weights_only."""
import io
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.Tanh()), ("bn", nn.BatchNorm1d(4)),
                                   ("fc2", nn.Linear(4, 2))]))
x, y = torch.randn(8, 3), torch.randn(8, 2)


def train_step(opt, closure=False):
    def loss_fn():
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        return loss
    if closure:
        return opt.step(loss_fn)
    loss = loss_fn()
    opt.step()
    return loss


def short(value):
    if isinstance(value, torch.Tensor):
        return f"T{tuple(value.shape)}:{value.dtype}" if value.numel() > 1 else f"t({round(value.item(), 5)}):{value.dtype}"
    return value


for name, kwargs in [("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4)),
                     ("Adam", dict(lr=1e-3, amsgrad=True)),
                     ("AdamW", dict(lr=1e-3, weight_decay=0.1)),
                     ("RMSprop", dict(lr=1e-2, centered=True, momentum=0.5)),
                     ("Adagrad", dict(lr=0.1, lr_decay=0.01)),
                     ("NAdam", dict(lr=1e-2, momentum_decay=4e-3)),
                     ("RAdam", dict(lr=1e-2, decoupled_weight_decay=True, weight_decay=0.01)),
                     ("Adadelta", dict()), ("Adamax", dict()), ("ASGD", dict(lr=0.01)), ("Rprop", dict())]:
    opt = getattr(torch.optim, name)(model.parameters(), **kwargs)
    loss = train_step(opt)
    sd = opt.state_dict()
    group = sd["param_groups"][0]
    print(name, round(loss.item(), 4), sorted(group), group["params"])
    print("  state[0]", {k: short(v) for k, v in sd["state"][0].items()})

opt = torch.optim.SGD(model.fc1.parameters(), lr=0.1, momentum=0.9)
print(opt)
opt.add_param_group({"params": model.fc2.parameters(), "lr": 0.01, "dampening": 0.1})
print(opt)
print("groups", [(len(g["params"]), g["lr"], g["dampening"]) for g in opt.param_groups])
train_step(opt)
print("momentum buffers", [tuple(s["momentum_buffer"].shape) for s in opt.state.values()])
sd = opt.state_dict()
print("sd param ids", [g["params"] for g in sd["param_groups"]], "state keys", sorted(sd["state"]))
try:
    opt.add_param_group({"params": model.fc1.weight})
except ValueError as e:
    print("ValueError:", e)

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=3, line_search_fn="strong_wolfe")
loss = train_step(lbfgs, closure=True)
st = lbfgs.state_dict()["state"][0]
print("LBFGS", round(loss.item(), 4), sorted(st), st["func_evals"], st["n_iter"], len(st["old_dirs"]))

opt = torch.optim.Adam(model.parameters(), lr=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.05, total_steps=20, pct_start=0.25)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2)
for _ in range(5):
    train_step(opt)
    sched.step()
print("onecycle", {k: short(v) for k, v in sched.state_dict().items() if k != "_anneal_func_type"})
print("plateau", {k: v for k, v in plateau.state_dict().items() if k not in ("mode_worse",)})
print("lr", [round(g["lr"], 6) for g in opt.param_groups], "betas", opt.param_groups[0]["betas"])

sd = model.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd["bn.num_batches_tracked"], sd["bn.running_mean"].round(decimals=4))
print("keep_vars", type(model.state_dict(keep_vars=True)["fc1.weight"]).__name__,
      type(sd["fc1.weight"]).__name__, sd["fc1.weight"].requires_grad)

checkpoint = {"epoch": 5, "model_state_dict": model.state_dict(), "optimizer_state_dict": opt.state_dict(),
              "scheduler": sched.state_dict(), "loss": loss, "note": "best", "history": [1.0, 0.5]}
buffer = io.BytesIO()
torch.save(checkpoint, buffer)
buffer.seek(0)
loaded = torch.load(buffer, map_location="cpu", weights_only=False)
print("loaded keys", sorted(loaded), loaded["epoch"], loaded["note"], loaded["history"])
model2 = nn.Sequential(OrderedDict([("fc1", nn.Linear(3, 4)), ("act", nn.Tanh()), ("bn", nn.BatchNorm1d(4)),
                                    ("fc2", nn.Linear(4, 2))]))
print(model2.load_state_dict(loaded["model_state_dict"]))
opt2 = torch.optim.Adam(model2.parameters(), lr=0.5)
opt2.load_state_dict(loaded["optimizer_state_dict"])
print("restored lr", opt2.param_groups[0]["lr"], "step", opt2.state[model2.fc1.weight]["step"])
print("same params", all(torch.equal(a, b) for a, b in zip(model.parameters(), model2.parameters())))
model2.eval()
model.eval()
print("same output", torch.equal(model(x), model2(x)))
buffer = io.BytesIO()
torch.save({"w": torch.arange(6.).view(2, 3)[:, 1:], "n": 3}, buffer)
buffer.seek(0)
obj = torch.load(buffer, weights_only=True)
print(obj, obj["w"].is_contiguous(), obj["w"].stride())
missing = model2.load_state_dict({"fc1.weight": torch.zeros(4, 3)}, strict=False)
print(missing.missing_keys[:3], missing.unexpected_keys)
try:
    model2.load_state_dict({"fc1.weight": torch.zeros(3, 3)}, strict=False)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0], str(e).splitlines()[1].strip())
