"""CTC as speech-recognition repositories (deepspeech.pytorch, wav2letter ports) use it in plain torch:
a BiGRU acoustic model emitting log_softmax over a blank + letters alphabet, F.ctc_loss / nn.CTCLoss with
(T, N, C) log-probs, input and target lengths and zero_infinity, reduction 'mean' (divided by target
lengths) vs 'sum', concatenated 1-D targets vs padded 2-D targets, greedy decoding with argmax,
torch.unique_consecutive and removal of blanks, a prefix beam search written with dicts and
torch.logaddexp, the character error rate via an edit-distance DP, and a few training steps where the
loss falls; plus the infinite loss of an impossible alignment with and without zero_infinity."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
alphabet = "_abc "
char_to_idx = {c: i for i, c in enumerate(alphabet)}
targets_text = ["abc", "cab", "a b"]
targets = [torch.tensor([char_to_idx[c] for c in t]) for t in targets_text]
target_lengths = torch.tensor([len(t) for t in targets])
flat_targets = torch.cat(targets)
padded_targets = nn.utils.rnn.pad_sequence(targets, batch_first=True)
print(flat_targets.tolist(), padded_targets.shape, target_lengths.tolist())


class AcousticModel(nn.Module):
    def __init__(self, n_feats=6, hidden=8, n_classes=len(alphabet)):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out).log_softmax(dim=-1)


T, N = 12, 3
feats = torch.randn(T, N, 6)
input_lengths = torch.tensor([12, 10, 11])
model = AcousticModel()
log_probs = model(feats)
print(log_probs.shape, log_probs.grad_fn.name())
ctc = nn.CTCLoss(blank=0, reduction="mean", zero_infinity=False)
loss_flat = ctc(log_probs, flat_targets, input_lengths, target_lengths)
loss_pad = ctc(log_probs, padded_targets, input_lengths, target_lengths)
loss_sum = F.ctc_loss(log_probs, flat_targets, input_lengths, target_lengths, reduction="sum")
loss_none = F.ctc_loss(log_probs, flat_targets, input_lengths, target_lengths, reduction="none")
print("ctc", round(loss_flat.item(), 4), torch.allclose(loss_flat, loss_pad), round(loss_sum.item(), 4),
      torch.allclose(loss_flat, (loss_none / target_lengths).mean()), loss_flat.grad_fn.name())
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(8):
    log_probs = model(feats)
    loss = ctc(log_probs, flat_targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    if step % 2 == 1:
        print(f"step {step} ctc {loss.item():.4f}")


def greedy_decode(log_probs, lengths, blank=0):
    best = log_probs.argmax(dim=-1).T
    out = []
    for seq, n in zip(best, lengths):
        collapsed = torch.unique_consecutive(seq[:n])
        out.append("".join(alphabet[i] for i in collapsed.tolist() if i != blank))
    return out


fake = torch.full((7, 1, 5), -10.0)
for t, c in enumerate([1, 1, 0, 1, 2, 2, 0]):
    fake[t, 0, c] = 0.0
fake = fake.log_softmax(-1)
print("greedy", greedy_decode(fake, [7]), torch.unique_consecutive(torch.tensor([1, 1, 0, 1, 2, 2, 0]), return_counts=True))


def prefix_beam_search(lp, beam=3, blank=0):
    beams = {(): (torch.tensor(0.0), torch.tensor(-math.inf))}
    for t in range(lp.shape[0]):
        nxt = {}
        for prefix, (pb, pnb) in beams.items():
            total = torch.logaddexp(pb, pnb)
            for c in range(lp.shape[1]):
                p = lp[t, c]
                if c == blank:
                    b, nb = nxt.get(prefix, (torch.tensor(-math.inf), torch.tensor(-math.inf)))
                    nxt[prefix] = (torch.logaddexp(b, total + p), nb)
                    continue
                new = prefix + (c,)
                b, nb = nxt.get(new, (torch.tensor(-math.inf), torch.tensor(-math.inf)))
                if prefix and prefix[-1] == c:
                    nxt[new] = (b, torch.logaddexp(nb, pb + p))
                    sb, snb = nxt.get(prefix, (torch.tensor(-math.inf), torch.tensor(-math.inf)))
                    nxt[prefix] = (sb, torch.logaddexp(snb, pnb + p))
                else:
                    nxt[new] = (b, torch.logaddexp(nb, total + p))
        beams = dict(sorted(nxt.items(), key=lambda kv: -torch.logaddexp(*kv[1]).item())[:beam])
    best, (pb, pnb) = next(iter(beams.items()))
    return "".join(alphabet[i] for i in best), torch.logaddexp(pb, pnb).item()


text, score = prefix_beam_search(fake[:, 0])
print("beam", text, round(score, 4))
with torch.no_grad():
    lp = model(feats)
print("decoded", greedy_decode(lp, input_lengths.tolist()), prefix_beam_search(lp[:6, 0])[0])


def edit_distance(a, b):
    d = torch.zeros(len(a) + 1, len(b) + 1, dtype=torch.long)
    d[:, 0] = torch.arange(len(a) + 1)
    d[0, :] = torch.arange(len(b) + 1)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1, -1].item()


print("cer", edit_distance("abc", "abbc") / 3, edit_distance("kitten", "sitting"))
short_lp = torch.randn(2, 1, 5).log_softmax(-1)
impossible = F.ctc_loss(short_lp, torch.tensor([[1, 1, 2]]), torch.tensor([2]), torch.tensor([3]), reduction="sum")
zeroed = F.ctc_loss(short_lp, torch.tensor([[1, 1, 2]]), torch.tensor([2]), torch.tensor([3]), reduction="sum",
                    zero_infinity=True)
print("impossible", impossible.item(), zeroed.item())
try:
    F.ctc_loss(short_lp, torch.tensor([[1, 2]]), torch.tensor([3]), torch.tensor([2]))
except RuntimeError as e:
    print("RuntimeError:", e)
