#' Cross-entropy clustering (CEC) and CEC with an information bottleneck (CEC-IB)
#'
#' `cec()` is cross-entropy clustering with Gaussian cluster models (Tabor &
#' Spurek 2014): it minimizes cost (2) of Smieja & Geiger (2017),
#' \deqn{H(\mathcal{Y}) + \sum_i p_i H(N(\mu_i, \Sigma_i)),}{H(Y) + sum_i p_i
#'   H(N(mu_i, Sigma_i)),}
#' where \eqn{p_i = |Y_i| / n}, \eqn{H(\mathcal{Y}) = -\sum_i p_i \log p_i}{H(Y)
#' = -sum_i p_i log p_i} is the cost of identifying the cluster and
#' \eqn{H(N(\mu_i, \Sigma_i)) = \frac{p}{2}\log(2\pi e) + \frac12 \log\det
#' \Sigma_i}{H(N(mu_i, Sigma_i)) = (p/2) log(2 pi e) + (1/2) log det Sigma_i}
#' is the cross-entropy of the maximum-likelihood Gaussian of cluster \eqn{i}
#' (natural logarithms). `cec_ib()` adds partial labels \eqn{Z} (cost (10)):
#' \deqn{E_\beta = H(\mathcal{Y}) + \sum_i p_i \left(H(N(\mu_i, \Sigma_i)) +
#'   \beta H(Z \mid Y_i \cap X_\ell)\right),}{E_beta = H(Y) + sum_i p_i
#'   (H(N(mu_i, Sigma_i)) + beta H(Z | Y_i and labelled)),}
#' where \eqn{H(Z \mid Y_i \cap X_\ell) = -\sum_j \frac{c_{ij}}{l_i} \log
#' \frac{c_{ij}}{l_i}}{H(Z | Y_i and labelled) = -sum_j (c_ij / l_i) log(c_ij /
#' l_i)} is the entropy of the labels among the \eqn{l_i} labelled points of
#' cluster \eqn{i} (0 when it has none), \eqn{c_{ij}}{c_ij} of them with label
#' \eqn{j}. Note the weight \eqn{p_i = |Y_i| / n} counts *all* points of the
#' cluster: unlabelled points are assumed to follow the label distribution of
#' the labelled points of their cluster (the paper's equations (6)-(9)). With
#' `beta = 0`, or no labelled points, `cec_ib()` is `cec()`.
#'
#' Labels need not cover every class, and may come from a coarser level of a
#' hierarchy than the clusters: a cluster that holds points of one label only
#' pays no label cost, so several clusters may share a label, and clusters
#' without labelled points are free.
#'
#' @section The number of clusters (defaults):
#' Called without `k`, `cec()` and `cec_ib()` choose the number of clusters
#' themselves by split mode (`split = TRUE`): a cluster is split in two
#' while that lowers the cost by more than the Bayesian information
#' criterion's price of the cluster it adds (`split_criterion = "bic"`),
#' the best of 10 restarts by cost plus price (greedy k-means++ seeds for the
#' local splits). `cec()` starts from one cluster. `cec_ib()` with labelled
#' points starts from the labelled classes (`start = "labels"`): one cluster
#' per label, its labelled points in it and every other point in the
#' cluster of the nearest label mean (Mahalanobis distance with the pooled
#' within-label covariance of the labelled points, or with the data's
#' covariance when they are fewer than the columns plus the labels); the
#' passes and splits then move on from there, so classes without labels
#' get clusters of their own when splitting pays, and clusters that fall
#' below the size rule are removed. All restarts start there and differ in
#' their split proposals. Without labelled points, or with `beta = 0`, it
#' starts from one cluster as `cec()` does.
#'
#' Of the searches measured on the seven UCI data sets of Smieja & Geiger
#' (2017) with 30% of the points labelled (starting at twice the true
#' number of classes as in the paper, at the true number, from one cluster
#' or from the labelled classes, with or without splits; splitting by cost
#' or by BIC; other seeds, more restarts, standardized columns, small
#' samples) the label start had a mean NMI of 0.716 (0.720 with one
#' restart, 0.726 without split mode, which cannot give classes without
#' labels clusters of their own), against 0.711 from one cluster and 0.620
#' from twice the true number, where a
#' semi-supervised Gaussian mixture told the true number (\pkg{Rmixmod})
#' had 0.712 in the same run, and kept the number of clusters within one of
#' the number of classes on 6 of the 7 data sets (2 of 7 from twice the
#' true number). That lead is within the spread between sets of draws: over
#' six further sets of 10 draws per data set it was 0.006 below
#' \pkg{Rmixmod} on average (standard error 0.003; from one cluster 0.012
#' below), ahead on wine, vertebral, the segmentation and user knowledge
#' data, level on iris, and behind on ecoli and glass. See
#' `bench/results/cec-ib-defaults.md` and `cec-ib-seeds.md` in the source
#' repository. From many clusters instead (the paper's protocol) the
#' in-sample cost prefers to keep more clusters than there are classes on
#' data of a few hundred points, and the labelled classes end up split.
#'
#' The search is greedy, and the BIC prices a `"full"` cluster by the square
#' of the number of columns, so it may stop early. Halving points spread
#' along a segment does not lower the cost (the entropy of the cluster sizes
#' rises by as much as the Gaussian term falls), so on a row of groups
#' without labels no first split pays, and the fit keeps one cluster where
#' four do pay. Without labels on few points in many dimensions it may merge
#' classes (`cec()` on the 178 points and 13 columns of the wine data ends
#' with 2 clusters for 3 classes; with 10% of the points labelled, with 3).
#' There give `k`. Labels help: a split that separates labels lowers the
#' label term, which the price does not count.
#'
#' Given `k`, a run starts from `k` clusters and does not split (unless
#' `split = TRUE`): clusters can only be removed, so `k` is an upper bound,
#' as in the paper.
#'
#' @section Choosing beta:
#' With `beta = 1` (for labels you trust) splitting the data so that no
#' cluster mixes labels is never worse than merging labelled groups (Theorem
#' 4.1), so the clusters respect the labels. Smaller `beta` lets the data
#' overrule the labels: for a completely random labelling any `beta < 1`
#' keeps the labels from splitting a cluster. [cec_ib_beta0()] computes the
#' critical weight \eqn{\beta_0} of Theorem 4.2 above which a given split
#' suggested by the labels pays off; for noisy labels choose `beta` slightly
#' above the \eqn{\beta_0} of the clean split (the paper uses 0.269, the value
#' for splitting one Gaussian at its mean).
#'
#' @section Algorithm:
#' The Hartigan algorithm of Section 3.4: the start is drawn by `init` (by
#' default a greedy k-means++ seeding, every point to its nearest of `k`
#' seeds); each pass visits the points in
#' row order and moves each to the cluster with the largest decrease of the
#' cost, updating both clusters at once. A move is evaluated in
#' \eqn{O(p^2)} by rank-one updates of the mean, the scatter matrix and its
#' Cholesky factor (the log-determinant by the matrix determinant lemma;
#' \eqn{O(p)} for `"diagonal"` and `"spherical"`), and the label entropy in
#' \eqn{O(1)} from per-cluster label tallies. A cluster is removed, its
#' points going one by one to the cluster whose cost grows least, when it
#' holds fewer than `eps * n` points (by default \eqn{\lfloor 0.05 n
#' \rfloor}{floor(0.05 n)}, the `card.min = "5%"` of \pkg{CEC}) or fewer than
#' `p + 2` points or its covariance is singular (\pkg{CEC} keeps clusters of
#' `p + 1` points, the fewest with a non-singular covariance, but no point
#' can leave those, and the cost draws them towards points on a hyperplane,
#' singular up to rounding); so without split mode the number of clusters
#' can only shrink from `k`. A move that
#' would leave its cluster singular is not made; a removal that would shrink
#' the determinant of the cluster's scatter (for `"diagonal"`, one of its
#' variances) by a factor below \eqn{10^{-8}} counts as singular, since in
#' exact arithmetic that factor is 0 and only rounding makes it positive. After every pass the
#' statistics are recomputed from the points; the run stops after a pass
#' without moves (then no single move of a point lowers the cost) or after
#' `max_iter` passes. Of `restarts` runs, the one with the lowest cost is kept.
#'
#' @section Starting partitions (`init`):
#' * `"greedy"` (default): `k` seeds by greedy k-means++: each seed after the
#'   first is the best of \eqn{2 + \lfloor \log k \rfloor}{2 + floor(log k)}
#'   candidates drawn as in k-means++, the one leaving the smallest sum of
#'   squared distances to the nearest seed (Arthur and Vassilvitskii 2007;
#'   Grunau et al. 2023; the number of candidates of scikit-learn). Seeds that
#'   cover the data better make a run less likely to end with two clusters
#'   sharing one group of points while another cluster spans two: over the
#'   data sets and seeds of the CEC search benchmark (`vignette("performance")`)
#'   the best of 10 restarts was lower than from plain k-means++
#'   seeds on 516, equal on 225 and higher on 359 of 1100 (much lower on
#'   mixtures of 10 Gaussians, higher on the discrete features of the glass
#'   data at 6 clusters). With the same 10 restarts it was, in the median
#'   over 50 seeds, no higher than that of \pkg{CEC} on 13 of the 14 data
#'   sets and numbers of clusters where both costs are positive; on the 14th
#'   (the unscaled wine data, 3 clusters, where \pkg{CEC} stops with an error
#'   on 39 of the 50 seeds) the two are even: from the same starts they reach
#'   the same partition on 789 of the 844 of 1000 starts where \pkg{CEC}
#'   returns (a lower cost for ours on 35, for \pkg{CEC} on 20), and the best
#'   of 10 is lower or equal for either package about half of the time.
#' * `"kmeans++"`: `k` seeds by k-means++ (Arthur and Vassilvitskii 2007), as
#'   in the authors' implementation (the default of \pkg{CEC}).
#' * `"random"`: `k` distinct points drawn uniformly as seeds (the
#'   `centers.init = "random"` of \pkg{CEC}).
#' * `"partition"`: every point in one of `k` clusters uniformly at random,
#'   as line 10 of the paper's algorithm states. All clusters then start near
#'   the data mean, and more of them lose their points; runs tend to end with
#'   fewer clusters than from seeds, not always at a lower cost.
#'
#' Seeds use Euclidean distances, so `"greedy"`, `"kmeans++"` and `"random"`
#' starts depend on the scale of the columns, although the `"full"` cost
#' itself does not. Neither scale is better everywhere: seeds on
#' standardized columns (the same as calling `cec(scale(x))`) lowered the
#' best of 10 restarts on the unscaled wine data, whose Euclidean distances
#' are those of one column, but raised it on iris and the segmentation data
#' at twice the number of classes.
#'
#' @section Covariance regularization (`cov_reg`):
#' With `cov_reg = 0` (the default) the cluster covariances are the maximum
#' likelihood estimates of the paper, and a cluster whose points lie in a
#' lower-dimensional subspace (for instance a feature that is 0 for all of
#' them, common in data with many exact zeros) has a singular covariance and
#' is removed. With `cov_reg = kappa > 0` every cluster's scatter matrix gets
#' `kappa` times the covariance \eqn{\Sigma_X}{Sigma_X} of the whole data added:
#' \deqn{\Sigma_i = (S_i + \kappa \Sigma_X) / |Y_i|,}{Sigma_i = (S_i + kappa
#'   Sigma_X) / |Y_i|,}
#' as if `kappa` pseudo-points spread like the whole data joined every cluster
#' (the conjugate inverse-Wishart regularization of Fraley and Raftery 2007,
#' whose default scale in \pkg{mclust} is of this order). Covariances then stay
#' positive definite, so clusters are removed only by the size rules; the
#' method stays affine invariant (for `"full"`), and the regularization fades as
#' clusters grow. `cov_reg = 1` is a mild choice; the cost reported is cost
#' (10) with these covariances.
#'
#' @section Small samples (`small_sample`):
#' The Gaussian term of the cost is the cross-entropy of a cluster's points
#' under the Gaussian fitted to those same points, which is too optimistic
#' for small clusters: their maximum-likelihood covariances are too small,
#' and more so the smaller the cluster, so splitting a cluster looks better
#' than it is. On data of a few hundred points the cost then prefers more
#' clusters than there are (with three well-separated Gaussians of 50 points
#' in 4 dimensions, started at `k = 6`, CEC-IB kept 5 or 6, and those
#' partitions cost less than the true one: `vignette("performance")`). With
#' `small_sample = TRUE` every
#' cluster's term is instead the expected cross-entropy of a *new* point
#' drawn from the same Gaussian, which adds to the cross-entropy of a cluster
#' of \eqn{m} points
#' \deqn{\frac{p (p + 3)}{2 (m - p - 2)}}{p (p + 3) / (2 (m - p - 2))}
#' for `"full"` (its per-point small-sample AIC, Bedrick and Tsai 1994),
#' \eqn{2p / (m - 3)} for `"diagonal"` and
#' \eqn{p (p + 1) / (p (m - 1) - 2)} for `"spherical"`. The term is finite
#' only above \eqn{p + 2} points, so clusters then need at least
#' \eqn{p + 3}. It vanishes as clusters grow, so on large data the result is
#' that of the paper's cost. It is derived for maximum-likelihood
#' covariances, i.e. `cov_reg = 0`, and applies only to the families
#' `"full"`, `"diagonal"` and `"spherical"`: the clusters of the other
#' families (fixed covariance, radius, eigenvalues or mean) get no term.
#'
#' The term grows as a cluster shrinks, so single-point moves may never
#' empty a cluster that the cost would rather not have. With `small_sample =
#' TRUE` a pass without moves is therefore followed by deleting, in turn,
#' each cluster whole (its points one by one to the clusters whose cost
#' grows least); the deletion that lowers the cost most is kept and the
#' passes go on, and a run ends only when no move and no deletion pays.
#'
#' @section Split mode (`split`, `max_k`, `split_tries`):
#' With `split = TRUE` the number of clusters can also grow, as in the split
#' mode of \pkg{CEC}: after the run from `k` clusters (`k` left out: one
#' cluster), every cluster is tried split in two by a local two-cluster CEC
#' run on its own points, from `split_tries` starts drawn by `init`
#' (for [cec_ib()], when the cluster holds labelled points of two or more
#' labels, first from the start that separates its two most frequent labels,
#' the other points going to the nearer of their means). The cost is a sum
#' over clusters, so whether a split lowers the total cost is decided on the
#' cluster's points alone, and splits of different clusters do not
#' interact: all splits that lower the cost are made (largest fall first,
#' up to `max_k` clusters), then the Hartigan passes run on the whole data,
#' and the rounds repeat until no cluster's split lowers the cost. A part
#' below the size rule (`eps * n` or `p + 2` points) is removed in the
#' local run, so a split is only made into two viable clusters; a cluster
#' whose split failed is not tried again until its points change. Should
#' the passes after a round end above the cost before it (a removed
#' cluster), the round is undone and splitting stops, so the cost never
#' rises. Each of the `restarts` runs is a whole procedure (start, splits,
#' passes) and the lowest final cost is kept; from `k = 1` the start is the
#' same for all, and the runs differ in the local starts of the splits.
#' `split_history` records the number of clusters and the cost at the
#' start, after every split made and after the passes of every round.
#'
#' With `split_criterion = "bic"` a split must lower the cost by more than
#' the price of the cluster it adds, \eqn{(d + 1) \log(n) / (2n)}{(d + 1)
#' log(n) / (2 n)} with \eqn{d} the number of parameters of the cluster's
#' family (e.g. \eqn{p + p(p+1)/2} for `"full"`) and one for its weight, and
#' the restarts are compared by the cost plus that price for every cluster.
#' Since \eqn{n} times the cost (2) is minus the log-likelihood of the data
#' under the hard-assignment Gaussian mixture of the clusters, this splits
#' while the Bayesian information criterion (Schwarz 1978) falls, as X-means
#' does for k-means (Pelleg & Moore 2000). The label term of [cec_ib()] is
#' counted in the cost but its parameters (the label shares of a cluster)
#' are not priced. `"bic"` is the default; `"cost"` splits while the cost
#' falls, as \pkg{CEC} does.
#'
#' With `split_criterion = "cost"` split mode goes on while the cost falls,
#' and on data of a few hundred points the in-sample cross-entropy of the `"full"` family keeps falling as
#' clusters get smaller: there it ends with many clusters (on the UCI data of
#' Smieja & Geiger (2017), median numbers of clusters 4-13 for 3-7 classes,
#' at lower costs than runs from twice the true k). `split_criterion =
#' "bic"`, `small_sample = TRUE`, or a family that fixes the clusters' shape
#' (`"eigenvalues"`, e.g. with the eigenvalues of the within-label covariance
#' of the labelled points), keep the number of clusters near the number of
#' classes there; with 30% labels `split_criterion = "bic"` did so on 6 of
#' the 7 data sets, without any k, which is why it is the default.
#'
#' @section Cluster families (`type`, `param`):
#' The seven Gaussian families of cross-entropy clustering (Tabor & Spurek
#' 2014), as in the \pkg{CEC} package. With \eqn{\mu, \Sigma} the mean and
#' maximum-likelihood covariance of a cluster, its Gaussian term
#' \eqn{H} (the cross-entropy under the best Gaussian of the family) is:
#' * `"full"` (CEC: `"all"`): any covariance; \eqn{\frac p2 \log(2\pi e) +
#'   \frac12\log\det\Sigma}{(p/2) log(2 pi e) + 1/2 log det Sigma}.
#' * `"diagonal"` (`"diag"`): \eqn{\Sigma} restricted to its diagonal.
#' * `"spherical"` (`"sp"`): \eqn{\sigma^2 I} with \eqn{\sigma^2 = tr(\Sigma) / p}.
#' * `"fixed_covariance"` (`"covariance"`): the covariance is `param`, a
#'   \eqn{p \times p}{p x p} positive definite matrix \eqn{G};
#'   \eqn{\frac p2\log(2\pi) + \frac12\log\det G + \frac12 tr(G^{-1}\Sigma)}{(p/2)
#'   log(2 pi) + 1/2 log det G + 1/2 tr(G^-1 Sigma)}.
#' * `"fixed_spherical"` (`"fixedr"`): the covariance is \eqn{rI} with `param`
#'   \eqn{r > 0} the variance of every coordinate (as in \pkg{CEC}: balls of
#'   radius about \eqn{\sqrt r}{sqrt(r)});
#'   \eqn{\frac p2\log(2\pi r) + tr(\Sigma) / (2r)}{(p/2) log(2 pi r) + tr(Sigma) / (2 r)}.
#' * `"eigenvalues"` (`"eigen"`): the covariance has the eigenvalues
#'   \eqn{\lambda} given in `param` (`p` positive numbers, any order) and any
#'   rotation; the best rotation puts the largest \eqn{\lambda} on the
#'   direction of largest spread (von Neumann's trace inequality), so
#'   \eqn{H = \frac p2\log(2\pi) + \frac12\sum_j \log\lambda_j + \frac12
#'   \sum_j s_j / \lambda_j}{H = (p/2) log(2 pi) + 1/2 sum log lambda_j + 1/2
#'   sum s_j / lambda_j} with the eigenvalues \eqn{s} of \eqn{\Sigma} and
#'   \eqn{\lambda} both sorted decreasingly.
#' * `"fixed_mean"` (`"mean"`): the mean is `param` (a vector \eqn{m} of
#'   length `p`), the covariance free: \eqn{\frac p2\log(2\pi e) + \frac12
#'   \log\det(\Sigma + (\mu - m)(\mu - m)^T)}{(p/2) log(2 pi e) + 1/2 log det
#'   (Sigma + (mu - m)(mu - m)')}.
#'
#' `type` may also give one family per cluster (length `k`); then `param` is
#' a list of `k` entries (`NULL` for the families without a parameter) or, as
#' in \pkg{CEC}, a list with one entry per cluster whose family takes one, in
#' order. Cluster `a` of every start (the `a`-th seed, or cluster `a` of
#' `start`) has family `a`. A candidate move is evaluated in \eqn{O(p^2)}
#' for every family; for `"eigenvalues"` the eigenvalues of the moved
#' covariance come from the secular equation of a rank-one update of the
#' cluster's eigen-decomposition (Golub 1973; Bunch, Nielsen and Sorensen
#' 1978), which is recomputed in \eqn{O(p^3)} when a point actually moves. `cov_reg` applies to the families that estimate a
#' covariance by maximum likelihood and can become singular (`"full"`,
#' `"diagonal"`, `"spherical"`, `"fixed_mean"`); the others never are.
#' The fixed families keep the same removal rule (fewer than `eps * n` or
#' `p + 2` points). From the same start partition the fits agree with
#' `CEC::cec()` (whose `card.min` is our `eps`), partition and cost.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point; at least
#'   `p + 2` rows and a non-singular covariance.
#' @param side Partial labels: a vector or factor of length `nrow(x)` with
#'   `NA` for unlabelled points, or a `sideclust_labels` object (from
#'   [as_constraints()] or [sample_labels()]). Pairwise constraints are not
#'   accepted. `NULL` means no labels.
#' @param k Starting number of clusters (at most `nrow(x)`); the result may
#'   have fewer, or in split mode more. Left out (the default), the number of
#'   clusters is chosen by split mode with the BIC from one cluster; see The
#'   number of clusters.
#' @param beta Weight \eqn{\beta \ge 0} of the label term, see Choosing beta.
#' @param type Gaussian family of the clusters: `"full"`, `"diagonal"`,
#'   `"spherical"`, `"fixed_covariance"`, `"fixed_spherical"`,
#'   `"eigenvalues"` or `"fixed_mean"` (or CEC's names `"all"`,
#'   `"covariance"`, `"fixedr"`, `"sp"`, `"diag"`, `"eigen"`, `"mean"`); one,
#'   or one per cluster. See Cluster families.
#' @param param What the family fixes: a \eqn{p \times p}{p x p} positive
#'   definite matrix (`"fixed_covariance"`), a variance \eqn{r > 0}
#'   (`"fixed_spherical"`), `p` positive eigenvalues (`"eigenvalues"`) or a
#'   mean vector (`"fixed_mean"`); `NULL` for the other families. For one
#'   family per cluster, a list; see Cluster families.
#' @param restarts Number of runs from independent starts drawn by `init`.
#' @param max_iter Maximum number of passes per run.
#' @param eps A cluster with fewer than `eps * nrow(x)` points is removed.
#'   `NULL` (the default) removes those with fewer than `floor(0.05 *
#'   nrow(x))` points, as `card.min = "5%"` in \pkg{CEC} (Smieja & Geiger's
#'   rule with \eqn{\varepsilon = 0.05}{eps = 0.05} removes those with fewer
#'   than `0.05 * nrow(x)`, i.e. one point more when `0.05 * nrow(x)` is not
#'   a whole number). The fit records the value used.
#' @param cov_reg Covariance regularization \eqn{\kappa \ge 0}{kappa >= 0}:
#'   the number of pseudo-points with the covariance of the whole data added
#'   to every cluster's scatter; see Covariance regularization. `0` (the
#'   default) gives the maximum-likelihood covariances of the paper.
#' @param small_sample If `TRUE`, each cluster's Gaussian term is the expected
#'   cross-entropy of a new point rather than of its own points, which stops
#'   small clusters from looking better than they are; see Small samples.
#'   `FALSE` (the default) is the paper's cost.
#' @param init How each run's starting partition is drawn: `"greedy"`
#'   (greedy k-means++), `"kmeans++"`, `"random"` or `"partition"`; see
#'   Starting partitions.
#' @param start Optional initial partition: integers in `1..k`, one per point
#'   (`k` must be given). Then a single run starts from it (`restarts` and
#'   `init` are ignored). For [cec_ib()] also `"labels"`, the default when
#'   `k` is left out: one cluster per labelled class, see The number of
#'   clusters; `k`, if given, must be the number of labelled classes. In
#'   split mode each of the `restarts` runs starts there (they differ in
#'   their split proposals); without labelled points or with `beta = 0` it
#'   is ignored.
#' @param split If `TRUE`, clusters are split in two while that pays by
#'   `split_criterion` (CEC's split mode); see Split mode. By default `TRUE`
#'   when `k` is left out and `FALSE` when it is given.
#' @param max_k In split mode, the largest number of clusters (at least `k`);
#'   `NULL` (the default) for no limit but the size rule (clusters of at
#'   least `eps * nrow(x)` and `p + 2` points).
#' @param split_criterion In split mode, when a split is made: `"bic"`
#'   (default) when it lowers the cost by more than the BIC price of the
#'   cluster it adds; `"cost"` whenever it lowers the cost, as in \pkg{CEC};
#'   see Split mode. Ignored without split mode.
#' @param split_tries In split mode, the number of local two-cluster starts
#'   tried for each split of a cluster (for [cec_ib()] one more, driven by
#'   the labels, when the cluster holds several labels).
#' @param verbose Print one line per pass.
#' @return An object of class `c("cec_fit", "sideclust")` or
#'   `c("cec_ib", "sideclust")` (not `"cec"`: that is the class of the CEC
#'   package's fits, whose print and plot methods would take over once it
#'   is loaded), a list with
#'   \item{cluster}{cluster of every point, `1..k`, numbered in the order of
#'     their first point.}
#'   \item{k}{final number of clusters.}
#'   \item{cost, cost_parts}{final cost and its parts `entropy`
#'     (\eqn{H(\mathcal{Y})}{H(Y)}), `cross_entropy` (the Gaussian term) and
#'     `labels` (the label term, already multiplied by `beta`).}
#'   \item{objective, k_trace}{cost and number of clusters after every pass
#'     of the best run (in split mode, the passes on the whole data of all
#'     its rounds, in order).}
#'   \item{iterations, converged}{passes of the best run, and whether its
#'     last pass moved no point (and, with `small_sample`, no deletion of a
#'     cluster lowered the cost).}
#'   \item{contingency}{cluster x label table of counts, with a last column
#'     `unlabelled`.}
#'   \item{centers, covariances, size}{`k` x `p` model means (the fixed mean
#'     of a `"fixed_mean"` cluster, else the cluster mean), `p` x `p` x `k`
#'     model covariances (the Gaussian of the cluster's family closest to its
#'     points; maximum likelihood, or regularized by `cov_reg`) and cluster
#'     sizes.}
#'   \item{type, param}{family and parameter of each of the `k` final
#'     clusters (removed clusters take theirs with them; split clusters
#'     pass theirs to both parts).}
#'   \item{split_history}{in split mode, a data frame with one row per
#'     event: `k` and `cost` at the `"start"` (after the run from `k`), after
#'     every `"split"` made and after the `"passes"` on the whole data that
#'     close each round; the cost never rises from row to row. `NULL`
#'     without split mode.}
#'   \item{max_k}{in split mode, the limit used (`NULL`: none).}
#'   \item{split_criterion}{in split mode, the criterion used.}
#'   \item{beta, eps, cov_reg, small_sample, restarts, init, side,
#'     call}{settings and labels used.}
#' @references
#' Arthur, D. and Vassilvitskii, S. (2007). k-means++: the advantages of
#' careful seeding. Proceedings of the 18th ACM-SIAM Symposium on Discrete
#' Algorithms, 1027-1035.
#'
#' Bedrick, E. J. and Tsai, C.-L. (1994). Model selection for multivariate
#' regression in small samples. Biometrics 50, 226-231.
#'
#' Bunch, J. R., Nielsen, C. P. and Sorensen, D. C. (1978). Rank-one
#' modification of the symmetric eigenproblem. Numerische Mathematik 31,
#' 31-48.
#'
#' Fraley, C. and Raftery, A. E. (2007). Bayesian regularization for normal
#' mixture estimation and model-based clustering. Journal of Classification
#' 24, 155-181.
#'
#' Golub, G. H. (1973). Some modified matrix eigenvalue problems. SIAM Review
#' 15, 318-334.
#'
#' Grunau, C., Ozudogru, A. A., Rozhon, V. and Tetek, J. (2023). A nearly
#' tight analysis of greedy k-means++. Proceedings of the 2023 ACM-SIAM
#' Symposium on Discrete Algorithms, 1012-1070.
#'
#' Pelleg, D. and Moore, A. (2000). X-means: extending k-means with
#' efficient estimation of the number of clusters. Proceedings of the 17th
#' International Conference on Machine Learning, 727-734.
#'
#' Schwarz, G. (1978). Estimating the dimension of a model. Annals of
#' Statistics 6, 461-464.
#'
#' Smieja, M. and Geiger, B. C. (2017). Semi-supervised cross-entropy
#' clustering with information bottleneck constraint. Information Sciences
#' 421, 254-271.
#'
#' Tabor, J. and Spurek, P. (2014). Cross-entropy clustering. Pattern
#' Recognition 47, 3046-3059.
#' @seealso [cec_ib_beta0()], [sample_labels()], [compare_partitions()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- cec(x, k = 6)
#' fit$k
#' table(fit$cluster, iris$Species)
#'
#' # a family per cluster: free, a ball of variance 0.5, fixed eigenvalues
#' fit_mix <- cec(x, k = 3, type = c("full", "fixedr", "eigen"),
#'                param = list(NULL, 0.5, c(1, 0.5, 0.2, 0.1)))
#' fit_mix$type
#'
#' # 20% of the points labelled; the default chooses the number of clusters
#' labels <- sample_labels(iris$Species, fraction = 0.2)
#' fit_ib <- cec_ib(x, labels)
#' fit_ib$k
#' # the paper's protocol: start from 6 clusters, remove those not needed
#' fit_6 <- cec_ib(x, labels, k = 6, beta = 1)
#' fit_ib$contingency
#' fit_ib$cost_parts
#' predict(fit_ib, x[1:5, ])$cluster
#'
#' # split mode as CEC has it: from one cluster, splitting while the cost falls
#' fit_split <- cec(x, 1, split = TRUE, split_criterion = "cost", restarts = 2)
#' fit_split$split_history
#' @export
cec <- function(x, k, type = "full", param = NULL,
                restarts = 10L, max_iter = 100L, eps = NULL, cov_reg = 0,
                init = c("greedy", "kmeans++", "random", "partition"), start = NULL,
                small_sample = FALSE, split = missing(k), max_k = NULL, split_tries = 5L,
                split_criterion = c("bic", "cost"), verbose = FALSE) {
  call <- match.call()
  force(split)  # its default reads missing(k), so before k is filled in
  criterion_given <- !missing(split_criterion)
  if (missing(k)) k <- cec_missing_k(split)
  fit <- fit_cec(x, NULL, k, 0, type, param, restarts, max_iter, eps, cov_reg, init, start,
                 small_sample, verbose, split, max_k, split_tries, split_criterion,
                 criterion_given)
  fit$call <- call
  fit <- finish_fit(fit, x, "cec_fit")
  fit
}

#' @rdname cec
#' @export
cec_ib <- function(x, side, k, beta = 1,
                   type = "full", param = NULL, restarts = 10L,
                   max_iter = 100L, eps = NULL, cov_reg = 0,
                   init = c("greedy", "kmeans++", "random", "partition"),
                   start = if (missing(k)) "labels",
                   small_sample = FALSE, split = missing(k), max_k = NULL, split_tries = 5L,
                   split_criterion = c("bic", "cost"), verbose = FALSE) {
  call <- match.call()
  force(split)  # their defaults read missing(k), so before k is filled in
  force(start)
  criterion_given <- !missing(split_criterion)
  if (missing(side)) stop_arg("side", "is missing; give partial labels, or NULL for none")
  if (missing(k)) k <- NULL
  fit <- fit_cec(x, side, k, beta, type, param, restarts, max_iter, eps, cov_reg, init, start,
                 small_sample, verbose, split, max_k, split_tries, split_criterion,
                 criterion_given)
  fit$call <- call
  fit <- finish_fit(fit, x, "cec_ib")
  fit
}
