"""Attention-based neural machine translation as bentrevett's tutorial 4 ("Packed Padded Sequences,
Masking, Inference and BLEU") and the PyTorch chatbot tutorial write it: a bidirectional GRU
encoder over pack_padded_sequence(enforce_sorted=False), the concatenated final states through a
tanh layer, Bahdanau attention with masked_fill on padding, teacher forcing decided by
random.random(), CrossEntropyLoss(ignore_index=PAD), gradient clipping, greedy decoding returning
attention maps, and a hand-written BLEU-2 with collections.Counter."""
import math
import random
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

random.seed(0)
torch.manual_seed(0)
PAD, SOS, EOS = 0, 1, 2
V = 12  # tokens 3..11 are words


def make_pair():
    n = random.randint(2, 6)
    src = [random.randint(3, V - 1) for _ in range(n)]
    trg = [SOS] + list(reversed(src)) + [EOS]  # "translation" = reversal
    return torch.tensor(src + [EOS]), torch.tensor(trg)


pairs = [make_pair() for _ in range(48)]


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional=True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len.to("cpu"), enforce_sorted=False)
        packed_outputs, hidden = self.rnn(packed_embedded)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)))
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self, enc_hid_dim, dec_hid_dim):
        super().__init__()
        self.attn = nn.Linear((enc_hid_dim * 2) + dec_hid_dim, dec_hid_dim)
        self.v = nn.Linear(dec_hid_dim, 1, bias=False)

    def forward(self, hidden, encoder_outputs, mask):
        batch_size = encoder_outputs.shape[1]
        src_len = encoder_outputs.shape[0]
        hidden = hidden.unsqueeze(1).repeat(1, src_len, 1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        energy = torch.tanh(self.attn(torch.cat((hidden, encoder_outputs), dim=2)))
        attention = self.v(energy).squeeze(2)
        attention = attention.masked_fill(mask == 0, -1e10)
        return F.softmax(attention, dim=1)


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = output_dim
        self.attention = attention
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU((enc_hid_dim * 2) + emb_dim, dec_hid_dim)
        self.fc_out = nn.Linear((enc_hid_dim * 2) + dec_hid_dim + emb_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, encoder_outputs, mask):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        a = self.attention(hidden, encoder_outputs, mask)
        a = a.unsqueeze(1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        weighted = torch.bmm(a, encoder_outputs)
        weighted = weighted.permute(1, 0, 2)
        rnn_input = torch.cat((embedded, weighted), dim=2)
        output, hidden = self.rnn(rnn_input, hidden.unsqueeze(0))
        assert (output == hidden).all()
        embedded = embedded.squeeze(0)
        output = output.squeeze(0)
        weighted = weighted.squeeze(0)
        prediction = self.fc_out(torch.cat((output, weighted, embedded), dim=1))
        return prediction, hidden.squeeze(0), a.squeeze(1)


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, src_pad_idx):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_pad_idx = src_pad_idx

    def create_mask(self, src):
        return (src != self.src_pad_idx).permute(1, 0)

    def forward(self, src, src_len, trg, teacher_forcing_ratio=0.5):
        batch_size = src.shape[1]
        trg_len = trg.shape[0]
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim)
        encoder_outputs, hidden = self.encoder(src, src_len)
        input = trg[0, :]
        mask = self.create_mask(src)
        for t in range(1, trg_len):
            output, hidden, _ = self.decoder(input, hidden, encoder_outputs, mask)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs


def init_weights(m):
    for name, param in m.named_parameters():
        if "weight" in name:
            nn.init.normal_(param.data, mean=0, std=0.01)
        else:
            nn.init.constant_(param.data, 0)


attn = Attention(16, 16)
model = Seq2Seq(Encoder(V, 8, 16, 16, 0.1), Decoder(V, 8, 16, 16, 0.1, attn), PAD)
model.apply(init_weights)
print(f"The model has {sum(p.numel() for p in model.parameters() if p.requires_grad):,} trainable parameters")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss(ignore_index=PAD)


def batches(data, size):
    for i in range(0, len(data), size):
        chunk = data[i:i + size]
        src = pad_sequence([s for s, _ in chunk], padding_value=PAD)
        trg = pad_sequence([t for _, t in chunk], padding_value=PAD)
        yield src, torch.tensor([len(s) for s, _ in chunk]), trg


for epoch in range(25):
    model.train()
    epoch_loss = 0
    for src, src_len, trg in batches(pairs, 16):
        optimizer.zero_grad()
        output = model(src, src_len, trg)
        output_dim = output.shape[-1]
        output = output[1:].view(-1, output_dim)
        loss = criterion(output, trg[1:].view(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1)
        optimizer.step()
        epoch_loss += loss.item()
    if epoch % 6 == 5:
        epoch_loss /= 3
        print(f"Epoch: {epoch + 1:02} | Train Loss: {epoch_loss:.3f} | Train PPL: {math.exp(epoch_loss):7.3f}")


def translate_sentence(src, model, max_len=10):
    model.eval()
    src_tensor = src.unsqueeze(1)
    src_len = torch.LongTensor([len(src)])
    with torch.no_grad():
        encoder_outputs, hidden = model.encoder(src_tensor, src_len)
    mask = model.create_mask(src_tensor)
    trg_indexes = [SOS]
    attentions = torch.zeros(max_len, 1, len(src))
    for i in range(max_len):
        trg_tensor = torch.LongTensor([trg_indexes[-1]])
        with torch.no_grad():
            output, hidden, attention = model.decoder(trg_tensor, hidden, encoder_outputs, mask)
        attentions[i] = attention
        pred_token = output.argmax(1).item()
        trg_indexes.append(pred_token)
        if pred_token == EOS:
            break
    return trg_indexes[1:], attentions[:len(trg_indexes) - 1]


src, trg = pairs[0]
translation, attention = translate_sentence(src, model)
print("src", src.tolist(), "trg", trg.tolist(), "pred", translation)
print("attention", tuple(attention.shape), attention.sum(-1).squeeze(1).round(decimals=4).tolist())


def bleu2(candidate, reference):
    def ngrams(seq, n):
        return Counter(tuple(seq[i:i + n]) for i in range(len(seq) - n + 1))
    precisions = []
    for n in (1, 2):
        cand, ref = ngrams(candidate, n), ngrams(reference, n)
        overlap = sum(min(c, ref[g]) for g, c in cand.items())
        precisions.append(overlap / max(1, sum(cand.values())))
    if min(precisions) == 0:
        return 0.0
    bp = 1.0 if len(candidate) > len(reference) else math.exp(1 - len(reference) / max(1, len(candidate)))
    return bp * math.exp(sum(math.log(p) for p in precisions) / 2)


scores = []
for src, trg in pairs[:10]:
    pred, _ = translate_sentence(src, model)
    scores.append(bleu2([t for t in pred if t != EOS], trg[1:-1].tolist()))
print("BLEU-2", round(sum(scores) / len(scores), 4))

# packing details
lengths = torch.tensor([3, 5, 2])
seqs = pad_sequence([torch.arange(1, n + 1) for n in lengths.tolist()], batch_first=True)
packed = pack_padded_sequence(seqs, lengths, batch_first=True, enforce_sorted=False)
print("batch_sizes", packed.batch_sizes.tolist(), "sorted", packed.sorted_indices.tolist(), "unsorted", packed.unsorted_indices.tolist())
print("data", packed.data.tolist())
unpacked, lens = pad_packed_sequence(packed, batch_first=True, padding_value=-1, total_length=6)
print(unpacked.tolist(), lens.tolist())
