"""A variable-length LSTM text classifier as NLP tutorials write it: a vocab built with Counter,
numericalised sentences, pad_sequence(batch_first=True, padding_value=PAD), a collate_fn returning
lengths, pack_padded_sequence(enforce_sorted=False) into a bidirectional 2-layer LSTM, h_n of the
last layer's two directions concatenated, pad_packed_sequence with total_length, masked mean pooling,
pack_sequence/unpack_sequence and unpad_sequence round trips, and an accuracy loop."""
from collections import Counter
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence, unpack_sequence, unpad_sequence
from torch.utils.data import DataLoader

torch.manual_seed(0)
texts = ["good movie", "really bad film", "great acting and good plot", "terrible", "bad bad bad",
         "good good fun", "awful acting", "great film really great", "boring and bad", "fun"]
labels = [1, 0, 1, 0, 0, 1, 0, 1, 0, 1]
counter = Counter(w for t in texts for w in t.split())
vocab = {"<pad>": 0, "<unk>": 1}
for w, _ in counter.most_common():
    vocab[w] = len(vocab)
PAD = vocab["<pad>"]
print(len(vocab), counter.most_common(3))
data = [(torch.tensor([vocab.get(w, 1) for w in t.split()], dtype=torch.long), l) for t, l in zip(texts, labels)]


def collate_batch(batch):
    text_list, label_list, lengths = [], [], []
    for text, label in batch:
        text_list.append(text)
        label_list.append(label)
        lengths.append(len(text))
    return pad_sequence(text_list, batch_first=True, padding_value=PAD), torch.tensor(label_list), torch.tensor(lengths)


class LSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, num_class):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, num_layers=2, bidirectional=True, batch_first=True, dropout=0.0)
        self.fc = nn.Linear(hidden_dim * 2, num_class)

    def forward(self, text, lengths):
        embedded = self.embedding(text)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, (hidden, cell) = self.lstm(packed)
        hidden = torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)
        return self.fc(hidden), packed_out


model = LSTMClassifier(len(vocab), 8, 6, 2)
loader = DataLoader(data, batch_size=4, shuffle=True, collate_fn=collate_batch)
text, lab, lengths = next(iter(loader))
print(text, lengths)
logits, packed_out = model(text, lengths)
print(type(packed_out).__name__, packed_out.data.shape, packed_out.batch_sizes, packed_out.sorted_indices, packed_out.unsorted_indices)
out, out_lens = pad_packed_sequence(packed_out, batch_first=True, total_length=6)
print(out.shape, out_lens, out[0, :, :2])
mask = (torch.arange(out.size(1)).unsqueeze(0) < out_lens.unsqueeze(1)).unsqueeze(-1)
mean_pooled = (out * mask).sum(1) / out_lens.unsqueeze(1)
print(mean_pooled.shape, mean_pooled[:, :3])

optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
criterion = nn.CrossEntropyLoss()
for epoch in range(4):
    model.train()
    total_acc, total_count, total_loss = 0, 0, 0.0
    for idx, (text, label, lengths) in enumerate(loader):
        optimizer.zero_grad()
        predicted_label, _ = model(text, lengths)
        loss = criterion(predicted_label, label)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_acc += (predicted_label.argmax(1) == label).sum().item()
        total_count += label.size(0)
        total_loss += loss.item()
    print(f"| epoch {epoch} | accuracy {total_acc / total_count:8.3f} | loss {total_loss:.4f}")
print(model.embedding.weight[PAD].abs().sum().item(), model.embedding.weight.grad[PAD].abs().sum().item())

seqs = [torch.tensor([1., 2., 3.]), torch.tensor([4., 5.]), torch.tensor([6.])]
packed = pack_sequence(seqs)
print(packed.data, packed.batch_sizes)
print([s.tolist() for s in unpack_sequence(packed)])
padded = pad_sequence(seqs, batch_first=True)
print(padded, [s.tolist() for s in unpad_sequence(padded, torch.tensor([3, 2, 1]), batch_first=True)])
print(pad_sequence(seqs, padding_side="left", batch_first=True))
packed_unsorted = pack_padded_sequence(padded[[2, 0, 1]], torch.tensor([1, 3, 2]), batch_first=True, enforce_sorted=False)
gru = nn.GRU(1, 2, batch_first=True)
o, h = gru(PackedSeq := packed_unsorted._replace(data=packed_unsorted.data.unsqueeze(-1)))
print(h.shape, pad_packed_sequence(o, batch_first=True)[1])
try:
    pack_padded_sequence(padded, torch.tensor([1, 3, 2]), batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
