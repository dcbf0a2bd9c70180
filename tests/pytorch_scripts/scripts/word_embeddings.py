import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

CONTEXT_SIZE = 2
EMBEDDING_DIM = 6
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held""".split()
ngrams = [
    ([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
    for i in range(CONTEXT_SIZE, len(test_sentence))
]
print(ngrams[:3])
vocab = set(test_sentence)
word_to_ix = {word: i for i, word in enumerate(sorted(vocab))}


class NGramLanguageModeler(nn.Module):
    def __init__(self, vocab_size, embedding_dim, context_size):
        super(NGramLanguageModeler, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 32)
        self.linear2 = nn.Linear(32, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape).roll(7 * i))
print(model)
optimizer = optim.SGD(model.parameters(), lr=0.001)
for epoch in range(3):
    total_loss = 0
    for context, target in ngrams:
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(context_idxs)
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    losses.append(round(total_loss, 4))
print(losses)
print(model.embeddings.weight[word_to_ix["beauty's"]])
emb = nn.Embedding(10, 3, padding_idx=0)
print(emb, emb.weight[0], emb.padding_idx)
with torch.no_grad():
    emb.weight.copy_(torch.arange(30.).reshape(10, 3))
idx = torch.tensor([[1, 2, 0], [4, 3, 9]])
out = emb(idx)
print(out.shape, out[1])
out.sum().backward()
print(emb.weight.grad[:5])
pretrained = torch.tensor([[1.0, 2.3, 3], [4, 5.1, 6.3]])
embedding = nn.Embedding.from_pretrained(pretrained)
print(embedding(torch.LongTensor([1])), embedding.weight.requires_grad)
bag = nn.EmbeddingBag(10, 3, mode="sum")
with torch.no_grad():
    bag.weight.copy_(torch.arange(30.).reshape(10, 3))
print(bag(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])).detach())
print(F.one_hot(torch.tensor([0, 2, 1]), num_classes=4))
print(F.cosine_similarity(torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]])))
