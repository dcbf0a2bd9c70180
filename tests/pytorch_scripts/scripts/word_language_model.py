"""pytorch/examples word_language_model: RNNModel (LSTM with tied weights, GRU, RNN_TANH) and the
nn.Transformer subclass with its square subsequent mask, batchify/get_batch, repackage_hidden, the
manual SGD step with gradient clipping, and evaluate."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            try:
                nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            except KeyError as e:
                raise ValueError("An invalid option for `--model` was supplied") from e
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Transformer):
    """Container module with an encoder, a recurrent or transformer module, and a decoder."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid,
                                               num_encoder_layers=nlayers, num_decoder_layers=1)
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
        return mask

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data


def get_batch(source, i, bptt=5):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


text = ("the quick brown fox jumps over the lazy dog <eos> the dog sleeps and the fox runs <eos> "
        "a lazy fox is a quick dog <eos> the end of the story is near <eos>") * 5
dictionary = Dictionary()
ids = []
for word in text.split():
    ids.append(dictionary.add_word(word))
ids = torch.tensor(ids).type(torch.int64)
print(len(dictionary), ids.shape, ids[:10])

torch.manual_seed(1111)
train_data = batchify(ids[:120], 4)
val_data = batchify(ids[120:], 2)
print(train_data.shape, val_data.shape, train_data[:3])
criterion = nn.NLLLoss()
ntokens = len(dictionary)


def evaluate(model, data_source, eval_batch_size=2):
    model.eval()
    total_loss = 0.
    if model.__class__.__name__ != 'TransformerModel':
        hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, 5):
            data, targets = get_batch(data_source, i)
            if model.__class__.__name__ == 'TransformerModel':
                output = model(data)
                output = output.view(-1, ntokens)
            else:
                output, hidden = model(data, hidden)
                hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(model, lr, epoch):
    model.train()
    total_loss = 0.
    if model.__class__.__name__ != 'TransformerModel':
        hidden = model.init_hidden(4)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, 5)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        if model.__class__.__name__ == 'TransformerModel':
            output = model(data)
            output = output.view(-1, ntokens)
        else:
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
    print('| epoch {:3d} | lr {:02.2f} | loss {:5.3f} | ppl {:8.3f} | last norm {:.4f}'.format(
        epoch, lr, total_loss / (batch + 1), math.exp(total_loss / (batch + 1)), norm.item()))


for rnn_type, tied, lr in [('LSTM', True, 20), ('GRU', False, 20), ('RNN_TANH', False, 4)]:
    torch.manual_seed(1111)
    model = RNNModel(rnn_type, ntokens, 8, 8, 2, dropout=0.2, tie_weights=tied)
    print(rnn_type, sum(p.numel() for p in model.parameters()), model.decoder.weight is model.encoder.weight)
    best_val_loss = None
    for epoch in range(1, 4):
        train(model, lr, epoch)
        val_loss = evaluate(model, val_data)
        print('| end of epoch {:3d} | valid loss {:5.3f} | valid ppl {:8.3f}'.format(epoch, val_loss, math.exp(val_loss)))
        if not best_val_loss or val_loss < best_val_loss:
            best_val_loss = val_loss
        else:
            lr /= 4.0

try:
    RNNModel('LSTMX', ntokens, 8, 8, 2)
except ValueError as e:
    print('ValueError', type(e.__cause__).__name__)

torch.manual_seed(1111)
model = TransformerModel(ntokens, 8, 2, 16, 2, dropout=0.2)
print(model.src_mask, model._generate_square_subsequent_mask(3))
for epoch in range(1, 3):
    train(model, 5.0, epoch)
    val_loss = evaluate(model, val_data)
    print('| end of epoch {:3d} | valid loss {:5.3f}'.format(epoch, val_loss))
print(model.src_mask.shape, len([n for n, _ in model.named_parameters() if n.startswith('decoder.')]))

# generate.py
model.eval()
input = torch.randint(ntokens, (1, 1), dtype=torch.long)
words = []
with torch.no_grad():
    for i in range(8):
        output = model(input, False)
        word_weights = output[-1].squeeze().div(1.0).exp().cpu()
        word_idx = torch.multinomial(word_weights, 1)[0]
        word_tensor = torch.Tensor([[word_idx]]).long()
        input = torch.cat([input, word_tensor], 0)
        words.append(dictionary.idx2word[word_idx])
print(' '.join(words))
