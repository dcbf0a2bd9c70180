"""A hand-written PyTorch-Lightning-style loop (as in many repos that avoid the dependency): a
LightningModule-like class with training_step / validation_step / configure_optimizers returning a
scheduler dict with a monitor, a Trainer with gradient accumulation, gradient clipping by value or norm,
epoch-end aggregation with torch.stack(outputs).mean(), an EarlyStopping callback and a ModelCheckpoint that
keeps deep copies of the best state_dict, and a final test with the best weights restored."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(7)


class LitClassifier(nn.Module):
    def __init__(self, in_dim=10, hidden=32, n_classes=3, lr=3e-3):
        super().__init__()
        self.hparams = dict(in_dim=in_dim, hidden=hidden, n_classes=n_classes, lr=lr)
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(hidden, n_classes))
        self.logged = {}

    def forward(self, x):
        return self.net(x)

    def log(self, name, value):
        self.logged.setdefault(name, []).append(value.detach() if torch.is_tensor(value) else torch.tensor(value))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)
        return {"loss": loss, "acc": (logits.argmax(-1) == y).float().mean()}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        return {"val_loss": F.cross_entropy(logits, y, reduction="sum"), "correct": (logits.argmax(1) == y).sum(),
                "n": torch.tensor(len(y))}

    def validation_epoch_end(self, outputs):
        n = torch.stack([o["n"] for o in outputs]).sum()
        val_loss = torch.stack([o["val_loss"] for o in outputs]).sum() / n
        acc = torch.stack([o["correct"] for o in outputs]).sum().float() / n
        return {"val_loss": val_loss, "val_acc": acc}

    def configure_optimizers(self):
        decay, no_decay = [], []
        for name, p in self.named_parameters():
            (no_decay if p.ndim == 1 else decay).append(p)
        optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05},
                                       {"params": no_decay, "weight_decay": 0.0}], lr=self.hparams["lr"])
        scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1,
                                                               threshold=1e-3, min_lr=1e-4)
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": scheduler, "monitor": "val_loss"}}


class EarlyStopping:
    def __init__(self, monitor="val_loss", patience=3, min_delta=0.0, mode="min"):
        self.monitor, self.patience, self.min_delta, self.mode = monitor, patience, min_delta, mode
        self.best = torch.tensor(float("inf") if mode == "min" else -float("inf"))
        self.wait = 0

    def __call__(self, metrics):
        current = metrics[self.monitor]
        improved = current < self.best - self.min_delta if self.mode == "min" else current > self.best + self.min_delta
        if improved:
            self.best, self.wait = current, 0
        else:
            self.wait += 1
        return self.wait >= self.patience


class ModelCheckpoint:
    def __init__(self, monitor="val_acc", save_top_k=2):
        self.monitor, self.save_top_k = monitor, save_top_k
        self.saved = []

    def __call__(self, epoch, metrics, model):
        score = metrics[self.monitor].item()
        self.saved.append((score, epoch, copy.deepcopy(model.state_dict())))
        self.saved.sort(key=lambda item: (-item[0], item[1]))
        del self.saved[self.save_top_k:]


class Trainer:
    def __init__(self, max_epochs, accumulate_grad_batches=1, gradient_clip_val=None,
                 gradient_clip_algorithm="norm", callbacks=()):
        self.max_epochs, self.accumulate = max_epochs, accumulate_grad_batches
        self.clip_val, self.clip_algorithm = gradient_clip_val, gradient_clip_algorithm
        self.callbacks = callbacks
        self.global_step = 0

    def fit(self, model, train_loader, val_loader):
        config = model.configure_optimizers()
        optimizer, sched = config["optimizer"], config["lr_scheduler"]
        early, checkpoint = self.callbacks
        for epoch in range(self.max_epochs):
            model.train()
            optimizer.zero_grad(set_to_none=True)
            accs = []
            for batch_idx, batch in enumerate(train_loader):
                out = model.training_step(batch, batch_idx)
                (out["loss"] / self.accumulate).backward()
                accs.append(out["acc"])
                if (batch_idx + 1) % self.accumulate == 0 or batch_idx + 1 == len(train_loader):
                    if self.clip_val is not None:
                        if self.clip_algorithm == "norm":
                            norm = nn.utils.clip_grad_norm_(model.parameters(), self.clip_val)
                        else:
                            nn.utils.clip_grad_value_(model.parameters(), self.clip_val)
                            norm = torch.stack([p.grad.norm() for p in model.parameters()]).norm()
                    optimizer.step()
                    optimizer.zero_grad(set_to_none=True)
                    self.global_step += 1
            model.eval()
            with torch.no_grad():
                metrics = model.validation_epoch_end([model.validation_step(b, i) for i, b in enumerate(val_loader)])
            sched["scheduler"].step(metrics[sched["monitor"]])
            train_loss = torch.stack(model.logged["train_loss"][-len(train_loader):]).mean()
            print(f"epoch {epoch} step {self.global_step} train_loss {train_loss:.4f} train_acc "
                  f"{torch.stack(accs).mean():.3f} val_loss {metrics['val_loss']:.4f} val_acc {metrics['val_acc']:.3f} "
                  f"lr {optimizer.param_groups[0]['lr']:.5f} grad_norm {norm:.3f}")
            checkpoint(epoch, metrics, model)
            if early(metrics):
                print(f"early stopping at epoch {epoch}, best val_loss {early.best:.4f}")
                break


X = torch.randn(300, 10)
w = torch.randn(10, 3)
y = (X @ w + 0.5 * torch.randn(300, 3)).argmax(1)
dataset = TensorDataset(X, y)
train_set, val_set, test_set = random_split(dataset, [200, 60, 40], generator=torch.Generator().manual_seed(1))
print(len(train_set), len(val_set), len(test_set), train_set.indices[:5])
train_loader = DataLoader(train_set, batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(2))
val_loader = DataLoader(val_set, batch_size=32)
test_loader = DataLoader(test_set, batch_size=40)

model = LitClassifier()
trainer = Trainer(max_epochs=12, accumulate_grad_batches=2, gradient_clip_val=0.5,
                  callbacks=(EarlyStopping(patience=4, min_delta=1e-3), ModelCheckpoint(save_top_k=2)))
trainer.fit(model, train_loader, val_loader)
print("best checkpoints:", [(round(s, 4), e) for s, e, _ in trainer.callbacks[1].saved])
best_state = trainer.callbacks[1].saved[0][2]
print(list(best_state.keys())[:6], best_state["net.1.num_batches_tracked"])
model.load_state_dict(best_state)
model.eval()
with torch.no_grad():
    print("test:", {k: round(v.item(), 4) for k, v in model.validation_epoch_end(
        [model.validation_step(b, i) for i, b in enumerate(test_loader)]).items()})

trainer2 = Trainer(max_epochs=2, gradient_clip_val=0.01, gradient_clip_algorithm="value",
                   callbacks=(EarlyStopping(), ModelCheckpoint()))
trainer2.fit(LitClassifier(hidden=16), train_loader, val_loader)
