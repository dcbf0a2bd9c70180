"""The PyTorch tutorial 'Sequence Models and Long Short-Term Memory Networks' (Robert Guthrie): an
nn.LSTM stepped one element at a time with a (hidden, cell) tuple and fed the whole sequence at once
(same outputs), prepare_sequence with word_to_ix, the LSTMTagger (Embedding -> LSTM -> Linear ->
log_softmax) trained with NLLLoss and SGD(lr=0.1), tag scores before and after training, and the
exercise's character-level augmentation (a char LSTM whose final hidden state is concatenated to each
word embedding)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)
lstm = nn.LSTM(3, 3)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
step_out, step_hidden = out, hidden
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
out, hidden = lstm(inputs, hidden)
print(out.shape, out.grad_fn.name() if out.grad_fn else None, hidden[0].shape, hidden[1].shape)
print("last out == h_n:", torch.equal(out[-1], hidden[0][0]))


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


training_data = [
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6


class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super(LSTMTagger, self).__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores


model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
print(model)
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores.round(decimals=4))
for epoch in range(30):
    total = 0.0
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        tag_scores = model(sentence_in)
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
        total += loss.item()
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {total:.4f}")
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores.round(decimals=3), tag_scores.argmax(1).tolist())


class CharLSTMTagger(nn.Module):
    def __init__(self, vocab_size, n_chars, tagset_size, word_dim=5, char_dim=3, char_hidden=4, hidden_dim=6):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, word_dim)
        self.char_embeddings = nn.Embedding(n_chars, char_dim)
        self.char_lstm = nn.LSTM(char_dim, char_hidden)
        self.lstm = nn.LSTM(word_dim + char_hidden, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence, chars):
        char_reps = []
        for word_chars in chars:
            _, (h, _) = self.char_lstm(self.char_embeddings(word_chars).unsqueeze(1))
            char_reps.append(h.view(-1))
        embeds = torch.cat([self.word_embeddings(sentence), torch.stack(char_reps)], dim=1)
        lstm_out, _ = self.lstm(embeds.unsqueeze(1))
        return F.log_softmax(self.hidden2tag(lstm_out.squeeze(1)), dim=1)


char_to_ix = {c: i for i, c in enumerate(sorted({c for s, _ in training_data for w in s for c in w}))}
cmodel = CharLSTMTagger(len(word_to_ix), len(char_to_ix), len(tag_to_ix))
copt = optim.SGD(cmodel.parameters(), lr=0.1)
for epoch in range(8):
    for sentence, tags in training_data:
        cmodel.zero_grad()
        chars = [prepare_sequence(list(w), char_to_ix) for w in sentence]
        loss = loss_function(cmodel(prepare_sequence(sentence, word_to_ix), chars), prepare_sequence(tags, tag_to_ix))
        loss.backward()
        copt.step()
print("char model loss", round(loss.item(), 4), loss.grad_fn.name())
print("char grad", cmodel.char_embeddings.weight.grad.abs().sum() > 0, cmodel.char_lstm.weight_hh_l0.grad.shape)
