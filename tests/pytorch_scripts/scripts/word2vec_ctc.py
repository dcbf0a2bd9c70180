"""Two classic sequence-training setups: word2vec skip-gram with negative sampling as the popular
PyTorch re-implementations write it (subsampling frequent words, a unigram^0.75 noise table sampled
with torch.multinomial, two nn.Embedding tables with uniform_/zero_ init, logsigmoid of bmm scores,
SparseAdam-free Adam, nearest neighbours by normalised cosine similarity), a CBOW variant with
nn.EmbeddingBag (mean and sum modes, offsets, per_sample_weights, padding_idx); then CTC training as
speech tutorials write it (a bidirectional GRU, log_softmax(2) in (T, N, C), nn.CTCLoss with
blank=0, zero_infinity, input/target lengths, concatenated 1-D targets) with greedy decoding by
argmax and unique_consecutive."""
import collections

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
corpus = ("the quick brown fox jumps over the lazy dog the dog sleeps the fox runs "
          "a quick dog and a lazy fox the end").split()
counts = collections.Counter(corpus)
vocab = sorted(counts, key=lambda w: (-counts[w], w))
word2idx = {w: i for i, w in enumerate(vocab)}
V = len(vocab)
freqs = torch.tensor([counts[w] for w in vocab], dtype=torch.float)
noise_dist = freqs ** 0.75 / (freqs ** 0.75).sum()
print(V, vocab[:4], noise_dist[:3].round(decimals=4).tolist())
p_drop = 1 - torch.sqrt(1e-1 / (freqs / freqs.sum()))
print("drop probs", p_drop.clamp(min=0)[:3].round(decimals=4).tolist())

ids = [word2idx[w] for w in corpus]
pairs = [(ids[i], ids[j]) for i in range(len(ids)) for j in range(max(0, i - 2), min(len(ids), i + 3)) if i != j]
centers = torch.tensor([p[0] for p in pairs])
contexts = torch.tensor([p[1] for p in pairs])
print("pairs", len(pairs), centers[:5].tolist(), contexts[:5].tolist())


class SkipGramNeg(nn.Module):
    def __init__(self, n_vocab, n_embed, noise_dist=None):
        super().__init__()
        self.n_vocab, self.n_embed, self.noise_dist = n_vocab, n_embed, noise_dist
        self.in_embed = nn.Embedding(n_vocab, n_embed)
        self.out_embed = nn.Embedding(n_vocab, n_embed)
        self.in_embed.weight.data.uniform_(-0.5 / n_embed, 0.5 / n_embed)
        self.out_embed.weight.data.zero_()

    def forward_noise(self, batch_size, n_samples):
        noise_words = torch.multinomial(self.noise_dist, batch_size * n_samples, replacement=True)
        return self.out_embed(noise_words).view(batch_size, n_samples, self.n_embed)


def neg_loss(input_vectors, output_vectors, noise_vectors):
    batch_size, embed_size = input_vectors.shape
    input_vectors = input_vectors.view(batch_size, embed_size, 1)
    output_vectors = output_vectors.view(batch_size, 1, embed_size)
    out_loss = torch.bmm(output_vectors, input_vectors).sigmoid().log().squeeze()
    noise_loss = torch.bmm(noise_vectors.neg(), input_vectors).sigmoid().log().squeeze().sum(1)
    return -(out_loss + noise_loss).mean()


model = SkipGramNeg(V, 8, noise_dist)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(5):
    perm = torch.randperm(len(pairs))
    total = 0.0
    for b in range(0, len(pairs), 32):
        idx = perm[b:b + 32]
        inp, out = model.in_embed(centers[idx]), model.out_embed(contexts[idx])
        loss = neg_loss(inp, out, model.forward_noise(len(idx), 5))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.4f}")
emb = F.normalize(model.in_embed.weight.detach(), dim=1)
sims = emb @ emb.T
sims.fill_diagonal_(-1)
best = sims.topk(2, dim=1)
print("neighbours of 'the':", [vocab[i] for i in best.indices[word2idx["the"]].tolist()],
      best.values[word2idx["the"]].round(decimals=3).tolist())
print(F.logsigmoid(torch.tensor([-2.0, 0.0, 3.0])).round(decimals=4).tolist())

# CBOW with EmbeddingBag
bag = nn.EmbeddingBag(V, 4, mode="mean")
flat = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
print("bag mean", bag(flat, offsets).shape, torch.allclose(bag(flat, offsets)[0], bag.weight[flat[:4]].mean(0)))
bag_sum = nn.EmbeddingBag.from_pretrained(torch.arange(V * 2, dtype=torch.float).view(V, 2), mode="sum")
print("bag sum", bag_sum(flat, offsets, per_sample_weights=torch.linspace(0, 1, 8)).round(decimals=3).tolist())
print("2-d input", bag_sum(torch.tensor([[0, 1], [2, 3]])).tolist())
padded = nn.EmbeddingBag(V, 3, mode="max", padding_idx=0)
print("padding_idx max", padded(torch.tensor([[0, 1], [0, 0]]))[1].tolist())
cbow_head = nn.Linear(4, V)
cbow_loss = F.cross_entropy(cbow_head(bag(flat, offsets)), torch.tensor([3, 7]))
cbow_loss.backward()
print("cbow", round(cbow_loss.item(), 4), bag.weight.grad.nonzero()[:, 0].unique().tolist())

# ---- CTC
torch.manual_seed(1)
T, N, C = 12, 3, 5  # blank = 0, labels 1..4


class SpeechModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(6, 8, bidirectional=True)
        self.fc = nn.Linear(16, C)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out).log_softmax(2)


feats = torch.randn(T, N, 6)
targets = torch.tensor([1, 2, 2, 3, 4, 1, 3, 2, 4])
target_lengths = torch.tensor([4, 2, 3])
input_lengths = torch.tensor([12, 10, 9])
ctc_model = SpeechModel()
ctc_loss = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(ctc_model.parameters(), lr=0.02)
for step in range(6):
    log_probs = ctc_model(feats)
    loss = ctc_loss(log_probs, targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(ctc_model.parameters(), 5.0)
    opt.step()
    print(f"ctc step {step} loss {loss.item():.4f}")
print(log_probs.shape, loss.grad_fn.name())
per_sample = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction="none")
print("per sample", per_sample.round(decimals=3).tolist())
padded_targets = torch.tensor([[1, 2, 2, 3], [4, 1, 0, 0], [3, 2, 4, 0]])
print("padded targets agree:", torch.allclose(
    F.ctc_loss(log_probs, padded_targets, input_lengths, target_lengths, reduction="sum"), per_sample.sum()))
impossible = F.ctc_loss(log_probs[:2, :1], torch.tensor([[1, 1, 1]]), torch.tensor([2]), torch.tensor([3]),
                        reduction="none")
print("impossible", impossible.tolist(), F.ctc_loss(log_probs[:2, :1], torch.tensor([[1, 1, 1]]), torch.tensor([2]),
                                                    torch.tensor([3]), zero_infinity=True).item())
try:
    F.ctc_loss(log_probs[:2], torch.tensor([[1, 1, 1]]), torch.tensor([2]), torch.tensor([3]))
except RuntimeError as e:
    print("RuntimeError:", e)
best_path = log_probs.argmax(2).T
for n in range(N):
    collapsed = torch.unique_consecutive(best_path[n, :input_lengths[n]])
    print("decoded", collapsed[collapsed != 0].tolist())
