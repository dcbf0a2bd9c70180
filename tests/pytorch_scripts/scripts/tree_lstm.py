"""Child-Sum Tree-LSTM (Tai et al.) as ttpro1995/TreeLSTMSentiment and the dasguptar/treelstm.pytorch
repository write it: a Tree class with recursive forward over children, torch.cat of child states,
sum of child hidden states, per-child forget gates computed with F.linear on stacked children,
sentiment at every node with NLLLoss, and the N-ary (binary) Tree-LSTM variant for parse trees;
also a recursive neural network (Socher-style) that composes with a shared Linear."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Tree(object):
    def __init__(self, idx, label=None):
        self.parent = None
        self.num_children = 0
        self.children = list()
        self.idx = idx
        self.label = label
        self.state = None

    def add_child(self, child):
        child.parent = self
        self.num_children += 1
        self.children.append(child)

    def size(self):
        return 1 + sum(c.size() for c in self.children)

    def depth(self):
        return 0 if self.num_children == 0 else 1 + max(c.depth() for c in self.children)


class ChildSumTreeLSTM(nn.Module):
    def __init__(self, in_dim, mem_dim):
        super(ChildSumTreeLSTM, self).__init__()
        self.in_dim = in_dim
        self.mem_dim = mem_dim
        self.ioux = nn.Linear(self.in_dim, 3 * self.mem_dim)
        self.iouh = nn.Linear(self.mem_dim, 3 * self.mem_dim)
        self.fx = nn.Linear(self.in_dim, self.mem_dim)
        self.fh = nn.Linear(self.mem_dim, self.mem_dim)

    def node_forward(self, inputs, child_c, child_h):
        child_h_sum = torch.sum(child_h, dim=0, keepdim=True)
        iou = self.ioux(inputs) + self.iouh(child_h_sum)
        i, o, u = torch.split(iou, iou.size(1) // 3, dim=1)
        i, o, u = torch.sigmoid(i), torch.sigmoid(o), torch.tanh(u)
        f = torch.sigmoid(self.fh(child_h) + self.fx(inputs).repeat(len(child_h), 1))
        fc = torch.mul(f, child_c)
        c = torch.mul(i, u) + torch.sum(fc, dim=0, keepdim=True)
        h = torch.mul(o, torch.tanh(c))
        return c, h

    def forward(self, tree, inputs):
        for idx in range(tree.num_children):
            self.forward(tree.children[idx], inputs)
        if tree.num_children == 0:
            child_c = inputs[0].detach().new(1, self.mem_dim).fill_(0.).requires_grad_()
            child_h = inputs[0].detach().new(1, self.mem_dim).fill_(0.).requires_grad_()
        else:
            child_c, child_h = zip(*map(lambda x: x.state, tree.children))
            child_c, child_h = torch.cat(child_c, dim=0), torch.cat(child_h, dim=0)
        tree.state = self.node_forward(inputs[tree.idx], child_c, child_h)
        return tree.state


class SentimentModule(nn.Module):
    def __init__(self, mem_dim, num_classes, dropout=0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        self.l1 = nn.Linear(mem_dim, num_classes)
        self.logsoftmax = nn.LogSoftmax(dim=1)

    def forward(self, vec):
        return self.logsoftmax(self.l1(self.dropout(vec)))


def build_tree(spec, labels):
    """spec: nested tuples of word indices, e.g. (0, (1, 2))."""
    counter = iter(range(100))
    nodes = []

    def make(s):
        node = Tree(next(counter))
        nodes.append(node)
        if isinstance(s, tuple):
            for child in s:
                node.add_child(make(child))
        return node

    root = make(spec)
    for node, lab in zip(nodes, labels):
        node.label = lab
    return root, nodes


vocab, in_dim, mem_dim = 12, 6, 8
emb = nn.Embedding(vocab, in_dim)
tree_lstm = ChildSumTreeLSTM(in_dim, mem_dim)
classifier = SentimentModule(mem_dim, 3)
params = list(emb.parameters()) + list(tree_lstm.parameters()) + list(classifier.parameters())
opt = torch.optim.Adagrad(params, lr=0.05, weight_decay=1e-4)
criterion = nn.NLLLoss()

data = []
for _ in range(4):
    spec = ((0, 1), 2, (3, (4, 5)))
    root, nodes = build_tree(spec, torch.randint(0, 3, (10,)).tolist())
    words = torch.randint(0, vocab, (len(nodes),))
    data.append((root, nodes, words))
print("tree size", data[0][0].size(), "depth", data[0][0].depth(), "children of root", data[0][0].num_children)

for epoch in range(6):
    total = 0.0
    for root, nodes, words in data:
        opt.zero_grad()
        tree_lstm(root, emb(words))
        hs = torch.cat([node.state[1] for node in nodes], dim=0)
        labels = torch.tensor([node.label for node in nodes])
        loss = criterion(classifier(hs), labels)
        loss.backward()
        opt.step()
        total += loss.item()
    if epoch % 2 == 1:
        print(f"epoch {epoch}: loss {total / len(data):.4f}")
root, nodes, words = data[0]
c, h = tree_lstm(root, emb(words))
print("root state", c.shape, h.shape, h.grad_fn.name(), [round(v, 4) for v in h[0, :4].tolist()])
pred = classifier(torch.cat([n.state[1] for n in nodes])).argmax(1)
print("node predictions", pred.tolist(), "labels", [n.label for n in nodes])


class BinaryTreeLSTM(nn.Module):
    """N-ary Tree-LSTM for binarized parse trees: separate U matrices for left and right children."""

    def __init__(self, in_dim, mem_dim):
        super().__init__()
        self.mem_dim = mem_dim
        self.W = nn.Linear(in_dim, 5 * mem_dim)
        self.U = nn.Linear(2 * mem_dim, 5 * mem_dim, bias=False)

    def forward(self, tree, inputs):
        if isinstance(tree, int):
            x = inputs[tree:tree + 1]
            zeros = x.new_zeros(1, 2 * self.mem_dim)
            hl_hr, cl, cr = zeros, zeros[:, :self.mem_dim], zeros[:, self.mem_dim:]
        else:
            (cl, hl), (cr, hr) = self.forward(tree[0], inputs), self.forward(tree[1], inputs)
            x = inputs.new_zeros(1, inputs.size(1))
            hl_hr = torch.cat([hl, hr], dim=1)
        gates = self.W(x) + self.U(hl_hr)
        i, fl, fr, o, u = gates.chunk(5, dim=1)
        c = i.sigmoid() * u.tanh() + fl.sigmoid() * cl + fr.sigmoid() * cr
        h = o.sigmoid() * c.tanh()
        return c, h


btree = BinaryTreeLSTM(in_dim, mem_dim)
c, h = btree(((0, 1), (2, (3, 4))), emb(torch.tensor([1, 5, 7, 2, 3])))
h.sum().backward()
print("binary tree-lstm", [round(v, 4) for v in h[0, :4].tolist()], round(btree.U.weight.grad.abs().sum().item(), 4))


class RecursiveNN(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.compose = nn.Linear(2 * dim, dim)

    def forward(self, tree, leaves):
        if isinstance(tree, int):
            return leaves[tree]
        left, right = self.forward(tree[0], leaves), self.forward(tree[1], leaves)
        return torch.tanh(self.compose(torch.cat([left, right], dim=-1)))


rnn = RecursiveNN(in_dim)
out = rnn(((0, 1), (2, (3, 4))), emb(torch.tensor([1, 5, 7, 2, 3])))
print("recursive nn", out.shape, [round(v, 4) for v in out.tolist()[:3]], out.grad_fn)
