# Small document-term data: counts of 3 topics over p words, with some
# all-zero columns and rows of a few non-zeros, as a dense matrix.
sparse_docs <- function(n = 150, p = 60, words = 12, seed = 3) {
  set.seed(seed)
  topic <- sample(3, n, TRUE)
  probs <- matrix(rgamma(3 * p, 0.2), 3)
  probs <- probs / rowSums(probs)
  x <- t(vapply(seq_len(n), function(i) as.double(stats::rmultinom(1, words, probs[topic[i], ])),
                numeric(p)))
  dimnames(x) <- list(paste0("doc", seq_len(n)), paste0("w", seq_len(p)))
  list(x = x, topic = topic)
}

# The same fit on the dense and on a sparse copy of the data, from one seed.
fit_both <- function(f, x, sparse, seed = 1) {
  set.seed(seed)
  a <- f(x)
  set.seed(seed)
  b <- f(sparse)
  list(dense = a, sparse = b)
}

# A slam::simple_triplet_matrix built by hand (slam need not be installed).
as_triplets <- function(x) {
  w <- which(x != 0, arr.ind = TRUE)
  structure(list(i = unname(w[, 1L]), j = unname(w[, 2L]), v = x[w], nrow = nrow(x),
                 ncol = ncol(x), dimnames = dimnames(x)),
            class = "simple_triplet_matrix")
}
