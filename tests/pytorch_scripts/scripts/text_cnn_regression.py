"""Kim's CNN for sentence classification as public repositories write it (Embedding, Conv2d over
(K, embed_dim) windows, squeeze(3), max_pool1d over the whole length, dropout, a padded batch from
pad_sequence), static/non-static embeddings from a pretrained matrix, and pytorch/examples regression
(polynomial features with torch.cat of powers, a manual update through .data, fc.zero_grad())."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence


class CNN_Text(nn.Module):
    def __init__(self, embed_num, embed_dim, class_num, kernel_num, kernel_sizes, dropout, static=False, pretrained=None):
        super(CNN_Text, self).__init__()
        V, D, C, Ci, Co, Ks = embed_num, embed_dim, class_num, 1, kernel_num, kernel_sizes
        self.static = static
        if pretrained is not None:
            self.embed = nn.Embedding.from_pretrained(pretrained, freeze=static, padding_idx=0)
        else:
            self.embed = nn.Embedding(V, D, padding_idx=0)
        self.convs1 = nn.ModuleList([nn.Conv2d(Ci, Co, (K, D)) for K in Ks])
        self.dropout = nn.Dropout(dropout)
        self.fc1 = nn.Linear(len(Ks) * Co, C)

    def forward(self, x):
        x = self.embed(x)
        if self.static:
            x = x.detach()
        x = x.unsqueeze(1)
        x = [F.relu(conv(x)).squeeze(3) for conv in self.convs1]
        x = [F.max_pool1d(i, i.size(2)).squeeze(2) for i in x]
        x = torch.cat(x, 1)
        x = self.dropout(x)
        logit = self.fc1(x)
        return logit


torch.manual_seed(0)
vocab = ['<pad>', 'good', 'bad', 'movie', 'great', 'awful', 'plot', 'the', 'a', 'boring', 'fun', 'really']
stoi = {w: i for i, w in enumerate(vocab)}
sentences = [("a really good movie", 1), ("the plot is boring", 0), ("great fun", 1), ("awful movie", 0),
             ("the movie is really fun", 1), ("bad plot bad movie", 0), ("good plot", 1), ("boring and awful", 0)]
seqs = [torch.tensor([stoi.get(w, 0) for w in s.split()]) for s, _ in sentences]
labels = torch.tensor([y for _, y in sentences])
batch = pad_sequence(seqs, batch_first=True, padding_value=0)
batch = F.pad(batch, (0, 5 - batch.size(1)))
print(batch, batch.dtype)
pretrained = torch.randn(len(vocab), 6)
for static in (False, True):
    torch.manual_seed(1)
    model = CNN_Text(len(vocab), 6, 2, 3, [2, 3], 0.5, static=static, pretrained=pretrained)
    optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=0.01)
    print(static, model.embed.weight.requires_grad, sum(p.numel() for p in model.parameters() if p.requires_grad))
    for steps in range(1, 7):
        model.train()
        optimizer.zero_grad()
        logit = model(batch)
        loss = F.cross_entropy(logit, labels)
        loss.backward()
        optimizer.step()
        if steps % 2 == 0:
            corrects = (torch.max(logit, 1)[1].view(labels.size()).data == labels.data).sum()
            accuracy = 100.0 * corrects / batch.shape[0]
            print('Batch[{}] - loss: {:.6f}  acc: {:.4f}%({}/{})'.format(steps, loss.item(), accuracy.item(), corrects, batch.shape[0]))
    model.eval()
    x = torch.tensor([[stoi['really'], stoi['great'], stoi['movie'], 0, 0]])
    output = model(x)
    _, predicted = torch.max(output, 1)
    print(F.softmax(output, dim=1), predicted.item(), model.embed.weight[0])

# pytorch/examples/regression
POLY_DEGREE = 4
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y


fc = torch.nn.Linear(W_target.size(0), 1)
for batch_idx in range(1, 201):
    batch_x, batch_y = get_batch()
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    if loss < 1e-3:
        break
    if batch_idx % 50 == 0:
        print(batch_idx, round(loss, 4))
print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
