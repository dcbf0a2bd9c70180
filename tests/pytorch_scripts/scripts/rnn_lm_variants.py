"""Language-model and recurrent-layer options that word-level LM and speech repos use: nn.LSTM with
proj_size (LSTMP), nn.RNN with nonlinearity='relu', a 2-layer bidirectional GRU with given h0 and
inter-layer dropout, stacked LSTMCells with zoneout-style masks, nn.AdaptiveLogSoftmaxWithLoss (cutoffs,
div_value, log_prob, predict), nn.EmbeddingBag in max / mean mode with offsets and padding_idx,
F.embedding with max_norm renormalising rows in place, SELU with AlphaDropout, and the init helpers
orthogonal_, dirac_, eye_, calculate_gain used for recurrent and conv weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(79)
vocab, emb_dim = 40, 8
tokens = torch.randint(0, vocab, (3, 7))

lstmp = nn.LSTM(emb_dim, 12, num_layers=2, proj_size=5, batch_first=True)
print("lstmp params", [(n, tuple(p.shape)) for n, p in lstmp.named_parameters()][:5])
emb = nn.Embedding(vocab, emb_dim)
out, (h, c) = lstmp(emb(tokens))
print("lstmp", out.shape, h.shape, c.shape, out[0, -1])
rnn_relu = nn.RNN(emb_dim, 6, nonlinearity="relu", batch_first=True)
o, hn = rnn_relu(emb(tokens))
print("rnn relu", o.shape, (o >= 0).all().item(), hn[0, 1])
gru = nn.GRU(emb_dim, 6, num_layers=2, bidirectional=True, dropout=0.3, batch_first=True)
h0 = torch.randn(4, 3, 6)
gru.eval()
o, hn = gru(emb(tokens), h0)
print("bigru", o.shape, hn.shape, torch.allclose(o[:, -1, :6], hn[2]), torch.allclose(o[:, 0, 6:], hn[3]))
gru.train()
o_train, _ = gru(emb(tokens), h0)
print("dropout changes output", not torch.allclose(o_train, o))

cells = nn.ModuleList([nn.LSTMCell(emb_dim, 10), nn.LSTMCell(10, 10)])
state = [(torch.zeros(3, 10), torch.zeros(3, 10)) for _ in cells]
x = emb(tokens)
outputs = []
for t in range(tokens.size(1)):
    inp = x[:, t]
    for i, cell in enumerate(cells):
        h_new, c_new = cell(inp, state[i])
        zone = (torch.rand_like(h_new) < 0.1).float()
        h_new = zone * state[i][0] + (1 - zone) * h_new
        state[i] = (h_new, c_new)
        inp = h_new
    outputs.append(inp)
print("stacked cells", torch.stack(outputs, 1).shape, outputs[-1][0, :4])

asm = nn.AdaptiveLogSoftmaxWithLoss(10, vocab, cutoffs=[5, 20], div_value=2.0)
print("adaptive", asm)
hidden = torch.stack(outputs, 1).reshape(-1, 10)
targets = tokens.reshape(-1)
result = asm(hidden, targets)
print("adaptive loss", result.loss.item(), result.output.shape, result.output[:4])
log_probs = asm.log_prob(hidden[:2])
print("log_prob", log_probs.shape, log_probs.exp().sum(1), "predict", asm.predict(hidden[:6]))
print("matches log_prob", torch.allclose(log_probs.gather(1, targets[:2, None]).squeeze(1), result.output[:2], atol=1e-6))
result.loss.backward()
print("grads", asm.head.weight.grad.abs().sum().item(), cells[0].weight_hh.grad.abs().sum().item())

bag_max = nn.EmbeddingBag(vocab, 4, mode="max")
bag_mean = nn.EmbeddingBag(vocab, 4, mode="mean", padding_idx=0)
flat = torch.tensor([1, 2, 4, 5, 4, 3, 2, 0, 0])
offsets = torch.tensor([0, 2, 5])
print("bag max", bag_max(flat, offsets))
print("bag mean padding", bag_mean(flat, offsets), bag_mean(torch.tensor([[0, 0, 1], [2, 3, 0]])))
print("bag per_sample_weights", F.embedding_bag(flat, bag_max.weight, offsets, mode="sum", per_sample_weights=torch.linspace(0, 1, 9)))

table = torch.randn(6, 3) * 3
idx = torch.tensor([0, 2, 2])
before = table.norm(dim=1).clone()
looked = F.embedding(idx, table, max_norm=1.0)
print("max_norm rows", looked.norm(dim=1), "table renormed", table.norm(dim=1), "untouched", before[[1, 3]])
norm_emb = nn.Embedding(6, 3, max_norm=2.0, norm_type=1.0)
norm_emb(torch.tensor([1, 4]))
print("nn.Embedding max_norm L1", norm_emb.weight.abs().sum(1))

selu_net = nn.Sequential(nn.Linear(16, 16), nn.SELU(), nn.AlphaDropout(0.2), nn.Linear(16, 16), nn.SELU())
for m in selu_net:
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, std=(1 / 16) ** 0.5)
        nn.init.zeros_(m.bias)
z = torch.randn(512, 16)
selu_net.eval()
print("selu self-normalising", selu_net(z).mean().item(), selu_net(z).std().item())
selu_net.train()
print("alpha dropout train", selu_net(z).mean().item(), F.alpha_dropout(torch.zeros(4), 0.5, training=True))

w = torch.empty(6, 4)
nn.init.orthogonal_(w, gain=nn.init.calculate_gain("tanh"))
print("orthogonal", (w.T @ w).diagonal(), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("selu"))
d = torch.empty(3, 3, 3, 3)
nn.init.dirac_(d)
print("dirac identity conv", torch.equal(F.conv2d(torch.arange(9.0).view(1, 1, 3, 3).repeat(1, 3, 1, 1), d, padding=1)[0, 1],
                                          torch.arange(9.0).view(3, 3)))
print("dirac groups", nn.init.dirac_(torch.empty(4, 2, 3), groups=2)[:, :, 1], nn.init.eye_(torch.empty(2, 3)))
for name, p in lstmp.named_parameters():
    if "weight_hh" in name:
        nn.init.orthogonal_(p)
    elif "bias" in name:
        nn.init.zeros_(p)
        p.data[12:24].fill_(1.0)
print("forget bias", lstmp.bias_ih_l0[10:14], lstmp.weight_hr_l0.shape)
