# The start of cec_ib() from the labelled classes (start = "labels", the
# default without k): one cluster per label, the labelled points in their
# label's cluster and every other point in the cluster of the nearest label
# mean, nearest in the Mahalanobis metric of the pooled within-label
# covariance (linear discriminant analysis on the labelled points).

# x: the n x p data; labels: label codes with NA for unlabelled points.
# Returns a partition in 1..L (L the number of labels present), or NULL when
# no point is labelled.
cec_label_start <- function(x, labels) {
  x <- as.matrix(x)
  labelled <- which(!is.na(labels))
  if (length(labelled) == 0L) return(NULL)
  lab <- match(labels[labelled], sort(unique(labels[labelled])))
  n_lab <- max(lab)
  xl <- x[labelled, , drop = FALSE]
  means <- rowsum(xl, lab) / tabulate(lab, n_lab)
  scatter <- cec_pooled_scatter(x, xl - means[lab, , drop = FALSE], n_lab)
  # squared Mahalanobis distances of every point to every label mean
  dist <- vapply(seq_len(n_lab), function(j) {
    z <- forwardsolve(scatter, t(x) - means[j, ], upper.tri = TRUE, transpose = TRUE)
    colSums(z^2)
  }, numeric(nrow(x)))
  start <- max.col(-matrix(dist, nrow(x)), ties.method = "first")
  start[labelled] <- lab
  start
}

# The upper Cholesky factor of the pooled within-label covariance, or of the
# whole data's covariance when the labelled points are too few to span every
# direction; a small ridge keeps it positive definite.
cec_pooled_scatter <- function(x, resid, n_lab) {
  p <- ncol(x)
  df <- nrow(resid) - n_lab
  cov <- if (df >= p) crossprod(resid) / df else stats::cov(x)
  ridge <- 1e-9 * max(mean(diag(cov)), .Machine$double.xmin)
  for (attempt in 1:8) {
    chol_factor <- tryCatch(chol(cov + diag(ridge, p)), error = function(e) NULL)
    if (!is.null(chol_factor)) return(chol_factor)
    ridge <- ridge * 1000
  }
  diag(sqrt(pmax(diag(cov), 1)), p)
}
