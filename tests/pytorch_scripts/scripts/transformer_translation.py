"""The PyTorch 'Language Translation with nn.Transformer' tutorial on a toy reversal task:
PositionalEncoding with a registered pos_embedding buffer, TokenEmbedding scaled by sqrt(emb_size),
Seq2SeqTransformer around nn.Transformer(batch_first=False) with encode/decode, generate_square_subsequent_mask
written with triu/masked_fill, create_mask with src/tgt padding masks, train_epoch with tgt_input = tgt[:-1],
and greedy_decode; then a TransformerDecoder-only stack with memory_key_padding_mask and
nn.Transformer.generate_square_subsequent_mask."""
import math
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import Transformer

torch.manual_seed(0)
DEVICE = torch.device("cpu")
PAD_IDX, BOS_IDX, EOS_IDX = 1, 2, 3
VOCAB = 10


class PositionalEncoding(nn.Module):
    def __init__(self, emb_size: int, dropout: float, maxlen: int = 5000):
        super(PositionalEncoding, self).__init__()
        den = torch.exp(- torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pos_embedding = torch.zeros((maxlen, emb_size))
        pos_embedding[:, 0::2] = torch.sin(pos * den)
        pos_embedding[:, 1::2] = torch.cos(pos * den)
        pos_embedding = pos_embedding.unsqueeze(-2)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('pos_embedding', pos_embedding)

    def forward(self, token_embedding: Tensor):
        return self.dropout(token_embedding + self.pos_embedding[:token_embedding.size(0), :])


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size: int, emb_size):
        super(TokenEmbedding, self).__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.emb_size = emb_size

    def forward(self, tokens: Tensor):
        return self.embedding(tokens.long()) * math.sqrt(self.emb_size)


class Seq2SeqTransformer(nn.Module):
    def __init__(self, num_encoder_layers, num_decoder_layers, emb_size, nhead, src_vocab_size, tgt_vocab_size, dim_feedforward=512, dropout=0.1):
        super(Seq2SeqTransformer, self).__init__()
        self.transformer = Transformer(d_model=emb_size, nhead=nhead, num_encoder_layers=num_encoder_layers, num_decoder_layers=num_decoder_layers, dim_feedforward=dim_feedforward, dropout=dropout)
        self.generator = nn.Linear(emb_size, tgt_vocab_size)
        self.src_tok_emb = TokenEmbedding(src_vocab_size, emb_size)
        self.tgt_tok_emb = TokenEmbedding(tgt_vocab_size, emb_size)
        self.positional_encoding = PositionalEncoding(emb_size, dropout=dropout)

    def forward(self, src, trg, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, memory_key_padding_mask):
        src_emb = self.positional_encoding(self.src_tok_emb(src))
        tgt_emb = self.positional_encoding(self.tgt_tok_emb(trg))
        outs = self.transformer(src_emb, tgt_emb, src_mask, tgt_mask, None, src_padding_mask, tgt_padding_mask, memory_key_padding_mask)
        return self.generator(outs)

    def encode(self, src: Tensor, src_mask: Tensor):
        return self.transformer.encoder(self.positional_encoding(self.src_tok_emb(src)), src_mask)

    def decode(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor):
        return self.transformer.decoder(self.positional_encoding(self.tgt_tok_emb(tgt)), memory, tgt_mask)


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz), device=DEVICE)) == 1).transpose(0, 1)
    mask = mask.float().masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    return mask


def create_mask(src, tgt):
    src_seq_len = src.shape[0]
    tgt_seq_len = tgt.shape[0]
    tgt_mask = generate_square_subsequent_mask(tgt_seq_len)
    src_mask = torch.zeros((src_seq_len, src_seq_len), device=DEVICE).type(torch.bool)
    src_padding_mask = (src == PAD_IDX).transpose(0, 1)
    tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1)
    return src_mask, tgt_mask, src_padding_mask, tgt_padding_mask


def make_batch(n):
    srcs, tgts = [], []
    for _ in range(n):
        L = int(torch.randint(2, 5, (1,)))
        seq = torch.randint(4, VOCAB, (L,))
        srcs.append(torch.cat([torch.tensor([BOS_IDX]), seq, torch.tensor([EOS_IDX])]))
        tgts.append(torch.cat([torch.tensor([BOS_IDX]), seq.flip(0), torch.tensor([EOS_IDX])]))
    pad = nn.utils.rnn.pad_sequence
    return pad(srcs, padding_value=PAD_IDX), pad(tgts, padding_value=PAD_IDX)


transformer = Seq2SeqTransformer(2, 2, 16, 2, VOCAB, VOCAB, dim_feedforward=32, dropout=0.0)
for p in transformer.parameters():
    if p.dim() > 1:
        nn.init.xavier_uniform_(p)
print(sum(p.numel() for p in transformer.parameters()), transformer.positional_encoding.pos_embedding.shape)
loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD_IDX)
optimizer = torch.optim.Adam(transformer.parameters(), lr=0.002, betas=(0.9, 0.98), eps=1e-9)
print(generate_square_subsequent_mask(4))
print(torch.equal(generate_square_subsequent_mask(4), Transformer.generate_square_subsequent_mask(4)))


def train_epoch(model, optimizer, batches):
    model.train()
    losses = 0
    for src, tgt in batches:
        tgt_input = tgt[:-1, :]
        src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = create_mask(src, tgt_input)
        logits = model(src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask)
        optimizer.zero_grad()
        tgt_out = tgt[1:, :]
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1))
        loss.backward()
        optimizer.step()
        losses += loss.item()
    return losses / len(batches)


batches = [make_batch(8) for _ in range(4)]
src, tgt = batches[0]
print(src.shape, tgt.shape, src[:, 0])
masks = create_mask(src, tgt[:-1])
print([tuple(m.shape) for m in masks], masks[2][0], masks[0].dtype)
for epoch in range(1, 6):
    print(epoch, f"{train_epoch(transformer, optimizer, batches):.4f}")


def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for i in range(max_len - 1):
        tgt_mask = (generate_square_subsequent_mask(ys.size(0)).type(torch.bool))
        out = model.decode(ys, memory, tgt_mask)
        out = out.transpose(0, 1)
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS_IDX:
            break
    return ys


transformer.eval()
src0 = batches[0][0][:, :1]
num_tokens = src0.shape[0]
src_mask = (torch.zeros(num_tokens, num_tokens)).type(torch.bool)
with torch.no_grad():
    print(greedy_decode(transformer, src0, src_mask, max_len=num_tokens + 2, start_symbol=BOS_IDX).flatten())
    memory = transformer.encode(src0, src_mask)
print(memory.shape)

# decoder-only stack with key padding masks, batch_first
layer = nn.TransformerDecoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True, norm_first=True)
decoder = nn.TransformerDecoder(layer, num_layers=2, norm=nn.LayerNorm(8))
tgt = torch.randn(2, 5, 8)
mem = torch.randn(2, 3, 8)
mem_pad = torch.tensor([[False, False, True], [False, False, False]])
tgt_pad = torch.tensor([[False, False, False, True, True], [False] * 5])
causal = nn.Transformer.generate_square_subsequent_mask(5)
out = decoder(tgt, mem, tgt_mask=causal, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=mem_pad, tgt_is_causal=True)
print(out.shape, out[0, 0], out[1, :2].sum().item())
print(decoder.layers[0].multihead_attn.batch_first, len(decoder.layers), decoder.layers[0] is not decoder.layers[1])
