# Partition comparison metrics: pairwise F-measure, adjusted Rand index and
# normalized mutual information. All of them are computed from one sparse
# contingency table (row sums, column sums and the nonzero cells), built in
# O(n + number of nonzero cells) time and memory, so two partitions of 1e7
# points into 1e6 clusters each never allocate a clusters x classes table.

# ---- internal helpers -------------------------------------------------------

# Check one labelling and return it as integer codes 1..k (first appearance
# order). Any atomic vector or factor is accepted; unused factor levels are
# ignored because only the values present are coded.
label_codes <- function(x, arg) {
  if (is.list(x)) {
    stop_arg(arg, "must be a vector of labels, not a list",
             if (!is.null(x[["cluster"]])) " (use its `$cluster` element)")
  }
  if (!is.atomic(x) || (!is.null(dim(x)) && length(dim(x)) > 1L)) {
    stop_arg(arg, "must be a vector of labels, not ", class(x)[1L])
  }
  if (length(x) == 0L) stop_arg(arg, "is empty; at least one label is needed")
  na <- which(is.na(x))
  if (length(na) > 0L) {
    stop_arg(arg, sprintf("has %d NA value%s (%s); remove those points from both partitions",
                          length(na), if (length(na) == 1L) "" else "s",
                          describe_positions(na, "positions")))
  }
  if (is.factor(x)) x <- as.integer(x)
  match(x, unique(x))
}

# Sparse contingency table of two labellings.
# Returns list(n, rows = truth class sizes, cols = cluster sizes,
#              cells = nonzero cell counts, cell_row, cell_col = their indices).
# `max_cells` (internal, for tests) bounds the dense tabulate() path; above it
# the cells are counted by sorting one double code per point.
contingency <- function(truth, cluster, max_cells = NULL) {
  a <- label_codes(truth, "truth")
  b <- label_codes(cluster, "cluster")
  if (length(a) != length(b)) {
    stop_arg("truth", sprintf(
      "and `cluster` must have the same length; `truth` has %d and `cluster` has %d",
      length(a), length(b)))
  }
  n <- length(a)
  ka <- max(a)
  kb <- max(b)
  n_cells <- as.double(ka) * kb
  # Dense counting costs O(ka * kb) memory: use it only when the table is not
  # much larger than the data, and never above 1e7 cells.
  if (is.null(max_cells)) max_cells <- min(1e7, max(1e5, 8 * n))
  if (n_cells <= max_cells) {
    counts <- tabulate(a + ka * (b - 1L), nbins = as.integer(n_cells))
    idx <- which(counts > 0L)
    cells <- counts[idx]
    code <- idx - 1
  } else {
    code <- sort.int((a - 1) + ka * (b - 1), method = "radix")
    runs <- rle(code)
    cells <- runs$lengths
    code <- runs$values
  }
  list(n = n, rows = tabulate(a, ka), cols = tabulate(b, kb),
       cells = as.double(cells),
       cell_row = as.integer(code %% ka) + 1L,
       cell_col = as.integer(code %/% ka) + 1L)
}

# Number of pairs, in double precision (no integer overflow for n up to 1e7+).
n_pairs <- function(m) {
  m <- as.double(m)
  m * (m - 1) / 2
}

# Pair counts: together in both, together in truth, together in cluster, all.
pair_counts <- function(tab) {
  c(both = sum(n_pairs(tab$cells)), truth = sum(n_pairs(tab$rows)),
    cluster = sum(n_pairs(tab$cols)), all = n_pairs(tab$n))
}

f_measure_tab <- function(tab) {
  p <- pair_counts(tab)
  denom <- p[["truth"]] + p[["cluster"]]
  if (denom == 0) return(1)
  2 * p[["both"]] / denom
}

ari_tab <- function(tab) {
  p <- pair_counts(tab)
  p_truth <- p[["truth"]]
  p_cluster <- p[["cluster"]]
  p_all <- p[["all"]]
  # The denominator vanishes only when both partitions are all singletons or
  # both are one cluster (then they are identical): test that exactly.
  if (p_all == 0 || (p_truth == 0 && p_cluster == 0) ||
      (p_truth == p_all && p_cluster == p_all)) {
    return(1)
  }
  expected <- p_truth * (p_cluster / p_all)
  (p[["both"]] - expected) / ((p_truth + p_cluster) / 2 - expected)
}

entropy_counts <- function(m, n) {
  p <- m[m > 0] / n
  -sum(p * log(p))
}

nmi_tab <- function(tab, normalization) {
  single_a <- length(tab$rows) == 1L
  single_b <- length(tab$cols) == 1L
  if (single_a && single_b) return(1)
  if (single_a || single_b) return(0)
  n <- tab$n
  h_a <- entropy_counts(tab$rows, n)
  h_b <- entropy_counts(tab$cols, n)
  pij <- tab$cells / n
  mi <- sum(pij * log(tab$cells * n /
                        (as.double(tab$rows[tab$cell_row]) * tab$cols[tab$cell_col])))
  value <- switch(normalization,
                  sqrt = mi / sqrt(h_a * h_b),
                  sum = 2 * mi / (h_a + h_b))
  # Clip rounding error (identical partitions give 1 +- a few ulps).
  min(1, max(0, value))
}

# ---- exported metrics -------------------------------------------------------

#' Pairwise F-measure between two partitions
#'
#' The pairwise F-measure of Bilenko, Basu and Mooney (2004, Section 4.1): a
#' pair of points is a positive when both points are in the same cluster.
#' Pairwise precision is the number of pairs together in both partitions over
#' the number of pairs together in `cluster`; recall is the same count over
#' the number of pairs together in `truth`; the F-measure is their harmonic
#' mean, `2 TP / (2 TP + FP + FN)`.
#'
#' All metrics are computed from the sparse contingency table of the two
#' labellings, in time and memory linear in the number of points plus the
#' number of nonzero cells; pair counts use double precision, so millions of
#' points and clusters are fine.
#'
#' Edge cases: when neither partition puts any pair together (both all
#' singletons, including a single point) the partitions are identical and the
#' F-measure is 1. When exactly one of them has no pair together the F-measure
#' is 0. The measure is symmetric in its two arguments.
#'
#' @param truth Reference labels: an atomic vector (integer, double,
#'   character, logical) or a factor. Only the values matter, not their type
#'   or order; unused factor levels are ignored. No `NA` allowed: remove
#'   unlabelled points from both partitions first.
#' @param cluster Labels to evaluate, of the same length as `truth`, with the
#'   same rules.
#' @return A single number in \[0, 1\].
#' @references Bilenko, M., Basu, S. and Mooney, R. J. (2004). Integrating
#'   constraints and metric learning in semi-supervised clustering.
#'   *Proceedings of the 21st International Conference on Machine Learning
#'   (ICML)*, 81--88. \doi{10.1145/1015330.1015360}
#' @seealso [ari()], [nmi()], [compare_partitions()]
#' @examples
#' truth <- c("a", "a", "a", "b", "b", "c")
#' cluster <- c(1, 1, 2, 2, 2, 3)
#' f_measure(truth, cluster)
#' f_measure(iris$Species, kmeans(iris[, 1:4], 3)$cluster)
#' @export
f_measure <- function(truth, cluster) {
  f_measure_tab(contingency(truth, cluster))
}

#' Adjusted Rand index between two partitions
#'
#' The adjusted Rand index of Hubert and Arabie (1985): the Rand index
#' corrected for chance agreement under the permutation model, so that it is
#' 1 for identical partitions and has expectation 0 for independent ones (it
#' can be negative).
#'
#' With \eqn{T} the number of pairs together in both partitions, \eqn{A} and
#' \eqn{B} the numbers of pairs together in `truth` and in `cluster`, and
#' \eqn{N = n(n-1)/2}, the index is
#' \deqn{\frac{T - AB/N}{(A + B)/2 - AB/N}.}
#' The denominator is 0 only when both partitions are all singletons or both a
#' single cluster (they are then identical); the index is then 1, as it is for
#' a single point. It is symmetric in its two arguments.
#'
#' @inheritParams f_measure
#' @return A single number, at most 1.
#' @references Hubert, L. and Arabie, P. (1985). Comparing partitions.
#'   *Journal of Classification*, 2(1), 193--218. \doi{10.1007/BF01908075}
#' @seealso [f_measure()], [nmi()], [compare_partitions()]
#' @examples
#' ari(c(1, 1, 2, 2), c("x", "x", "y", "y"))   # 1: same partition
#' ari(c(1, 1, 2, 2), c(1, 2, 1, 2))           # below 0
#' ari(iris$Species, kmeans(iris[, 1:4], 3)$cluster)
#' @export
ari <- function(truth, cluster) {
  ari_tab(contingency(truth, cluster))
}

#' Normalized mutual information between two partitions
#'
#' The mutual information \eqn{I} of the two labellings divided by a mean of
#' their entropies \eqn{H_1} and \eqn{H_2}:
#' * `"sqrt"`: \eqn{I / \sqrt{H_1 H_2}} (Strehl and Ghosh, 2002), the version
#'   used in the TVClust / RDP-means experiments (Khashabi et al., 2015);
#' * `"sum"`: \eqn{2 I / (H_1 + H_2)}, the version used in the CEC-IB
#'   experiments (Smieja and Geiger, 2017).
#'
#' Natural logarithms are used; the ratio does not depend on the base. If both
#' partitions are a single cluster (both entropies 0) the value is 1; if only
#' one of them is, it is 0. Results are clipped to \[0, 1\] to remove rounding
#' error. The measure is symmetric in its two arguments.
#'
#' @inheritParams f_measure
#' @param normalization `"sqrt"` (default) or `"sum"`, see Details.
#' @return A single number in \[0, 1\].
#' @references Strehl, A. and Ghosh, J. (2002). Cluster ensembles -- a
#'   knowledge reuse framework for combining multiple partitions. *Journal of
#'   Machine Learning Research*, 3, 583--617.
#'
#'   Khashabi, D., Wieting, J., Liu, J. Y. and Liang, F. (2015). Clustering
#'   with side information: from a probabilistic model to a deterministic
#'   algorithm. \doi{10.48550/arXiv.1508.06235}
#'
#'   Smieja, M. and Geiger, B. C. (2017). Semi-supervised cross-entropy
#'   clustering with information bottleneck constraint. *Information
#'   Sciences*, 421, 254--271. \doi{10.1016/j.ins.2017.07.016}
#' @seealso [f_measure()], [ari()], [compare_partitions()]
#' @examples
#' truth <- rep(1:3, each = 4)
#' cluster <- c(1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3)
#' nmi(truth, cluster)
#' nmi(truth, cluster, normalization = "sum")
#' @export
nmi <- function(truth, cluster, normalization = c("sqrt", "sum")) {
  normalization <- match_choice(normalization, c("sqrt", "sum"), "normalization")
  nmi_tab(contingency(truth, cluster), normalization)
}

#' Compare a clustering with a reference partition
#'
#' Computes [f_measure()], [ari()] and [nmi()] from one contingency table.
#'
#' @inheritParams f_measure
#' @param cluster Labels to evaluate (see [f_measure()]), or a fitted object:
#'   any list with a `cluster` element, such as the result of a `sideclust`
#'   method or [stats::kmeans()].
#' @param nmi_normalization Passed to [nmi()] as `normalization`: `"sqrt"`
#'   (default) or `"sum"`.
#' @return A named numeric vector `c(f_measure = , ari = , nmi = )`.
#' @references See [f_measure()], [ari()] and [nmi()].
#' @seealso [f_measure()], [ari()], [nmi()]
#' @examples
#' fit <- kmeans(iris[, 1:4], centers = 3, nstart = 5)
#' compare_partitions(iris$Species, fit)
#' compare_partitions(iris$Species, fit$cluster, nmi_normalization = "sum")
#' @export
compare_partitions <- function(truth, cluster, nmi_normalization = "sqrt") {
  nmi_normalization <- match_choice(nmi_normalization, c("sqrt", "sum"),
                                    "nmi_normalization")
  if (is.list(cluster) && !is.null(cluster[["cluster"]])) {
    cluster <- cluster[["cluster"]]
  }
  tab <- contingency(truth, cluster)
  c(f_measure = f_measure_tab(tab), ari = ari_tab(tab),
    nmi = nmi_tab(tab, nmi_normalization))
}
