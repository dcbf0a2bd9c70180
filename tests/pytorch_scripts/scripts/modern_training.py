import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_float32_matmul_precision("high")
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device, torch.get_float32_matmul_precision())


class Block(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, n_head, batch_first=True)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask):
        h = self.ln1(x)
        a, w = self.attn(h, h, h, attn_mask=mask, need_weights=True)
        x = x + a
        return x + self.mlp(self.ln2(x)), w


class TinyGPT(nn.Module):
    def __init__(self, vocab=16, dim=8, n_head=2, n_layer=2, block=6):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, block, dim))
        self.blocks = nn.ModuleList([Block(dim, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.tok.weight
        self.register_buffer("mask", torch.triu(torch.full((block, block), float("-inf")), diagonal=1))

    def forward(self, idx, targets=None):
        T = idx.size(1)
        x = self.tok(idx) + self.pos[:, :T]
        for blk in self.blocks:
            x, w = blk(x, self.mask[:T, :T])
        logits = self.head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, n):
        for _ in range(n):
            logits, _ = self(idx[:, -6:])
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            idx = torch.cat([idx, nxt], dim=1)
        return idx


model = TinyGPT().to(device)
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape).roll(3 * i) + (1.0 if name.endswith("ln1.weight") or name.endswith("ln2.weight") or name == "ln_f.weight" else 0.0))
print(sum(p.numel() for p in model.parameters()), len(list(model.parameters())), model.head.weight is model.tok.weight)
decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=3e-3, betas=(0.9, 0.95))
print(len(decay), len(no_decay), opt.param_groups[0]["weight_decay"], opt.defaults["eps"])
compiled = torch.compile(model)
scaler = torch.amp.GradScaler(device, enabled=(device == "cuda"))
data = torch.arange(7 * 4).reshape(4, 7) % 16
warmup, total = 2, 8


def lr_at(step):
    if step < warmup:
        return 3e-3 * (step + 1) / warmup
    return 3e-3 * 0.5 * (1 + math.cos(math.pi * (step - warmup) / (total - warmup)))


model.train()
for step in range(total):
    for g in opt.param_groups:
        g["lr"] = lr_at(step)
    with torch.autocast(device_type=device, dtype=torch.float16, enabled=False):
        _, loss = compiled(data[:, :6], data[:, 1:])
    opt.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
    print(step, f"{loss.item():.4f}", f"{norm.item():.4f}", f"{lr_at(step):.6f}")
model.eval()
print(model.generate(data[:2, :3], 4))
print(opt.state_dict()["state"][0]["exp_avg_sq"].shape, opt.state_dict()["param_groups"][1]["weight_decay"])
