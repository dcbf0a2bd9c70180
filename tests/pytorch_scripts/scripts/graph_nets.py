"""pytorch/examples gcn and gat on a small random graph: GraphConv with a xavier_normal_ kernel and the
renormalised adjacency D^-1/2 (A + I) D^-1/2 (dense), GraphAttentionLayer with multi-head attention
scores broadcast through .mT, masking with torch.where and concatenated or averaged heads, both trained
with Adam and weight decay on random train/val/test splits."""
import time
import torch
from torch import nn
import torch.nn.functional as F
from torch.optim import Adam


class GraphConv(nn.Module):
    def __init__(self, input_dim, output_dim, use_bias=False):
        super(GraphConv, self).__init__()
        self.kernel = nn.Parameter(torch.Tensor(input_dim, output_dim))
        nn.init.xavier_normal_(self.kernel)
        self.bias = None
        if use_bias:
            self.bias = nn.Parameter(torch.Tensor(output_dim))
            nn.init.zeros_(self.bias)

    def forward(self, input_tensor, adj_mat):
        support = torch.mm(input_tensor, self.kernel)
        output = torch.mm(adj_mat, support)
        if self.bias is not None:
            output = output + self.bias
        return output


class GCN(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, use_bias=True, dropout_p=0.1):
        super(GCN, self).__init__()
        self.gc1 = GraphConv(input_dim, hidden_dim, use_bias=use_bias)
        self.gc2 = GraphConv(hidden_dim, output_dim, use_bias=use_bias)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, input_tensor, adj_mat):
        x = self.gc1(input_tensor, adj_mat)
        x = F.relu(x)
        x = self.dropout(x)
        x = self.gc2(x, adj_mat)
        return F.log_softmax(x, dim=1)


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features: int, out_features: int, n_heads: int, concat: bool = False, dropout: float = 0.4, leaky_relu_slope: float = 0.2):
        super(GraphAttentionLayer, self).__init__()
        self.n_heads = n_heads
        self.concat = concat
        self.dropout = dropout
        if concat:
            self.out_features = out_features
            assert out_features % n_heads == 0
            self.n_hidden = out_features // n_heads
        else:
            self.n_hidden = out_features
        self.W = nn.Parameter(torch.empty(size=(in_features, self.n_hidden * n_heads)))
        self.a = nn.Parameter(torch.empty(size=(n_heads, 2 * self.n_hidden, 1)))
        self.leakyrelu = nn.LeakyReLU(leaky_relu_slope)
        self.softmax = nn.Softmax(dim=1)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.xavier_normal_(self.W)
        nn.init.xavier_normal_(self.a)

    def _get_attention_scores(self, h_transformed: torch.Tensor):
        source_scores = torch.matmul(h_transformed, self.a[:, :self.n_hidden, :])
        target_scores = torch.matmul(h_transformed, self.a[:, self.n_hidden:, :])
        e = source_scores + target_scores.mT
        return self.leakyrelu(e)

    def forward(self, h: torch.Tensor, adj_mat: torch.Tensor):
        n_nodes = h.shape[0]
        h_transformed = torch.mm(h, self.W)
        h_transformed = F.dropout(h_transformed, self.dropout, training=self.training)
        h_transformed = h_transformed.view(n_nodes, self.n_heads, self.n_hidden).permute(1, 0, 2)
        e = self._get_attention_scores(h_transformed)
        connectivity_mask = -9e16 * torch.ones_like(e)
        e = torch.where(adj_mat > 0, e, connectivity_mask)
        attention = F.softmax(e, dim=-1)
        attention = F.dropout(attention, self.dropout, training=self.training)
        h_prime = torch.matmul(attention, h_transformed)
        if self.concat:
            h_prime = h_prime.permute(1, 0, 2).contiguous().view(n_nodes, self.out_features)
        else:
            h_prime = h_prime.mean(dim=0)
        return h_prime


class GAT(nn.Module):
    def __init__(self, in_features, n_hidden, n_heads, num_classes, concat=False, dropout=0.4, leaky_relu_slope=0.2):
        super(GAT, self).__init__()
        self.gat1 = GraphAttentionLayer(in_features=in_features, out_features=n_hidden, n_heads=n_heads,
                                        concat=concat, dropout=dropout, leaky_relu_slope=leaky_relu_slope)
        self.gat2 = GraphAttentionLayer(in_features=n_hidden, out_features=num_classes, n_heads=1,
                                        concat=False, dropout=dropout, leaky_relu_slope=leaky_relu_slope)

    def forward(self, input_tensor: torch.Tensor, adj_mat: torch.Tensor):
        x = self.gat1(input_tensor, adj_mat)
        x = F.elu(x)
        x = self.gat2(x, adj_mat)
        return F.log_softmax(x, dim=1)


def train_iter(epoch, model, optimizer, criterion, input, target, mask_train, mask_val, print_every=10):
    start_t = time.time()
    model.train()
    optimizer.zero_grad()
    output = model(*input)
    loss = criterion(output[mask_train], target[mask_train])
    loss.backward()
    optimizer.step()
    loss_train, acc_train = test(model, criterion, input, target, mask_train)
    loss_val, acc_val = test(model, criterion, input, target, mask_val)
    if epoch % print_every == 0:
        elapsed = time.time() - start_t
        print(f'Epoch: {epoch:04d} ({elapsed >= 0}) loss_train: {loss_train:.4f} acc_train: {acc_train:.4f} loss_val: {loss_val:.4f} acc_val: {acc_val:.4f}')


def test(model, criterion, input, target, mask):
    model.eval()
    with torch.no_grad():
        output = model(*input)
        output, target = output[mask], target[mask]
        loss = criterion(output, target)
        acc = (output.argmax(dim=1) == target).float().sum() / len(target)
    return loss.item(), acc.item()


torch.manual_seed(42)
V, n_feat, n_classes = 30, 12, 3
labels = torch.randint(0, n_classes, (V,))
features = (torch.rand(V, n_feat) < 0.3).float()
features[torch.arange(V), labels] = 1.0
scale_vector = torch.sum(features, dim=1)
scale_vector = 1 / scale_vector
scale_vector[scale_vector == float('inf')] = 0
features = torch.diag(scale_vector) @ features
same = labels.unsqueeze(0) == labels.unsqueeze(1)
edges = (torch.rand(V, V) < torch.where(same, 0.3, 0.05)).nonzero()
print(edges.shape, edges[:3].tolist())
adj = torch.zeros(V, V, dtype=torch.int64)
adj[edges[:, 0], edges[:, 1]] = 1
adj = ((adj + adj.T) > 0).long()
adj_mat = torch.eye(V) + adj
print(adj_mat.dtype, adj_mat.sum().item())
degree_mat = torch.sum(adj_mat, dim=1)
degree_mat = torch.sqrt(1 / degree_mat)
degree_mat[degree_mat == float('inf')] = 0
degree_mat = torch.diag(degree_mat)
norm_adj = degree_mat @ adj_mat @ degree_mat
print(norm_adj[0, :5], norm_adj.sum(1)[:4])

idx = torch.randperm(len(labels))
idx_test, idx_val, idx_train = idx[:8], idx[8:14], idx[14:]
gcn = GCN(features.shape[1], 16, labels.max().item() + 1, True, 0.5)
optimizer = Adam(gcn.parameters(), lr=0.01, weight_decay=5e-4)
criterion = nn.NLLLoss()
for epoch in range(30):
    train_iter(epoch + 1, gcn, optimizer, criterion, (features, norm_adj), labels, idx_train, idx_val, 10)
loss_test, acc_test = test(gcn, criterion, (features, norm_adj), labels, idx_test)
print(f'Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}')

torch.manual_seed(13)
for concat in (False, True):
    gat_net = GAT(in_features=features.shape[1], n_hidden=8, n_heads=4, num_classes=labels.max().item() + 1,
                  concat=concat, dropout=0.6, leaky_relu_slope=0.2)
    optimizer = Adam(gat_net.parameters(), lr=0.005, weight_decay=5e-4)
    criterion = nn.NLLLoss()
    for epoch in range(20):
        train_iter(epoch + 1, gat_net, optimizer, criterion, (features, adj_mat), labels, idx_train, idx_val, 10)
    loss_test, acc_test = test(gat_net, criterion, (features, adj_mat), labels, idx_test)
    print(f'Test set results: loss {loss_test:.4f} accuracy {acc_test:.4f}')
print(gat_net.gat1.a.shape, gat_net.gat1.a.grad.abs().sum() > 0)
