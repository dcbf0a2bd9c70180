"""Recurrent-layer internals that sequence-model code pokes at: LSTM with proj_size (h of the projected
size, weight_hr_l0), bidirectional multi-layer h_n laid out as (num_layers * 2, N, H) and split with
view(num_layers, 2, N, H), the last layer's forward/backward final states vs the output sequence,
parameter names and shapes (weight_ih_l0_reverse, bias_hh_l1), flatten_parameters, inter-layer
dropout in train vs eval, _flat_weights, orthogonal_ init of each gate chunk, forget-gate bias set
to 1 through chunk, packed sequences with unsorted batches (sorted_indices/unsorted_indices) and
pad_packed_sequence(total_length=), plus a GRU stepped by hand with GRUCell sharing its weights."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)
lstm = nn.LSTM(input_size=4, hidden_size=6, num_layers=2, bidirectional=True, batch_first=True, dropout=0.3,
               proj_size=3)
print(lstm)
print([(n, tuple(p.shape)) for n, p in lstm.named_parameters()][:6])
print(len(lstm._flat_weights), lstm._flat_weights_names[-3:])
x = torch.randn(2, 5, 4)
lstm.eval()
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape)
h_layers = h.view(2, 2, 2, 3)
print("last fwd == out[:, -1, :3]", torch.allclose(h_layers[-1, 0], out[:, -1, :3], atol=1e-6),
      "last bwd == out[:, 0, 3:]", torch.allclose(h_layers[-1, 1], out[:, 0, 3:], atol=1e-6))
lstm.flatten_parameters()
lstm.train()
torch.manual_seed(1)
a, _ = lstm(x)
torch.manual_seed(1)
b, _ = lstm(x)
torch.manual_seed(2)
c2, _ = lstm(x)
print("dropout between layers:", torch.equal(a, b), not torch.equal(a, c2), torch.equal(lstm.eval()(x)[0], out))

gru = nn.GRU(3, 4, num_layers=1, batch_first=False)
for name, param in gru.named_parameters():
    if "weight_hh" in name:
        for chunk in param.data.chunk(3, 0):
            nn.init.orthogonal_(chunk)
    elif "bias" in name:
        nn.init.zeros_(param)
w = gru.weight_hh_l0.data[:4]
print("orthogonal gate", torch.allclose(w @ w.T, torch.eye(4), atol=1e-5))
lstm1 = nn.LSTM(3, 4)
with torch.no_grad():
    for name, p in lstm1.named_parameters():
        if name.startswith("bias"):
            p.zero_()
            p.chunk(4)[1].fill_(1.0)
print("forget bias", lstm1.bias_ih_l0.tolist())

cell = nn.GRUCell(3, 4)
cell.weight_ih, cell.weight_hh = gru.weight_ih_l0, gru.weight_hh_l0
cell.bias_ih, cell.bias_hh = gru.bias_ih_l0, gru.bias_hh_l0
seq = torch.randn(6, 2, 3)
h_t = torch.zeros(2, 4)
outs = []
for t in range(seq.size(0)):
    h_t = cell(seq[t], h_t)
    outs.append(h_t)
full, h_n = gru(seq)
print("GRUCell loop == GRU", torch.allclose(torch.stack(outs), full, atol=1e-6), torch.allclose(h_n[0], h_t, atol=1e-6))
rnn_cell = nn.RNNCell(3, 4, nonlinearity="relu")
print(rnn_cell, rnn_cell(seq[0]).min().item() >= 0)

lengths = torch.tensor([2, 5, 3])
padded = torch.randn(3, 5, 4)
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print("packed", packed.batch_sizes.tolist(), packed.sorted_indices.tolist(), packed.unsorted_indices.tolist(),
      packed.data.shape)
rnn = nn.LSTM(4, 3, batch_first=True)
packed_out, (hp, cp) = rnn(packed)
unpacked, lens = pad_packed_sequence(packed_out, batch_first=True, total_length=7)
print("unpacked", unpacked.shape, lens.tolist(), unpacked[0, 2:].abs().sum().item())
single, (hs, _) = rnn(padded[0:1, :2])
print("h_n in original order", torch.allclose(hp[0, 0], hs[0, 0], atol=1e-6), torch.allclose(unpacked[0, :2], single[0], atol=1e-6))
(unpacked.sum() + hp.sum()).backward()
print("grad", rnn.weight_ih_l0.grad.shape, round(rnn.weight_ih_l0.grad.abs().sum().item(), 4))
