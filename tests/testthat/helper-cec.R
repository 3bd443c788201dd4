# Brute-force references for CEC / CEC-IB, written plainly in R.

# Log-determinant of a cluster's ML covariance under the model type; with a
# prior matrix psi the covariance is (scatter + psi) / n (cov_reg).
cec_logdet <- function(xs, type, psi = 0) {
  s <- (crossprod(sweep(xs, 2, colMeans(xs))) + psi) / nrow(xs)
  switch(type,
    full = as.numeric(determinant(s, logarithm = TRUE)$modulus),
    diagonal = sum(log(diag(s))),
    spherical = ncol(s) * log(sum(diag(s)) / ncol(s)))
}

# Expected minus in-sample cross-entropy of a Gaussian fitted by maximum
# likelihood to m points (small_sample = TRUE).
cec_optimism <- function(m, p, type) {
  switch(type,
    full = p * (p + 3) / (2 * (m - p - 2)),
    diagonal = 2 * p / (m - 3),
    spherical = p * (p + 1) / (p * (m - 1) - 2))
}

# Cross-entropy of the points xs under the best Gaussian of a family
# (Tabor & Spurek 2014), from its closed form; psi: cov_reg's prior matrix.
cec_family_h <- function(xs, type, param = NULL, psi = 0) {
  p <- ncol(xs)
  m <- nrow(xs)
  mu <- colMeans(xs)
  sigma <- crossprod(sweep(xs, 2, mu)) / m
  switch(type,
    full = , diagonal = , spherical =
      p / 2 * log(2 * pi * exp(1)) + cec_logdet(xs, type, psi) / 2,
    fixed_covariance = p / 2 * log(2 * pi) + as.numeric(determinant(param)$modulus) / 2 +
      sum(diag(solve(param, sigma))) / 2,
    fixed_spherical = p / 2 * log(2 * pi * param) + sum(diag(sigma)) / (2 * param),
    eigenvalues = p / 2 * log(2 * pi) + sum(log(param)) / 2 +
      sum(sort(eigen(sigma, symmetric = TRUE)$values, decreasing = TRUE) /
            sort(param, decreasing = TRUE)) / 2,
    fixed_mean = {
      d <- mu - param
      s <- (crossprod(sweep(xs, 2, mu)) + psi) / m + tcrossprod(d)
      p / 2 * log(2 * pi * exp(1)) + as.numeric(determinant(s)$modulus) / 2
    })
}

# Parts of cost (10) recomputed from a partition; labels: NA = unlabelled.
# type: one family, or one per cluster id; param: the parameter of one
# family, or a list indexed by cluster id.
cec_cost_parts <- function(x, cluster, labels = NULL, beta = 0, type = "full",
                           cov_reg = 0, small_sample = FALSE, param = NULL) {
  x <- as.matrix(x)
  n <- nrow(x)
  p <- ncol(x)
  psi <- cov_reg * crossprod(sweep(x, 2, colMeans(x))) / n
  parts <- c(entropy = 0, cross_entropy = 0, labels = 0)
  for (a in unique(cluster)) {
    rows <- which(cluster == a)
    w <- length(rows) / n
    ta <- if (length(type) == 1L) type else type[a]
    pa <- if (length(type) == 1L && !is.list(param)) param else param[[a]]
    parts["entropy"] <- parts["entropy"] - w * log(w)
    parts["cross_entropy"] <- parts["cross_entropy"] +
      w * (cec_family_h(x[rows, , drop = FALSE], ta, pa, psi) +
             if (small_sample && ta %in% c("full", "diagonal", "spherical"))
               cec_optimism(length(rows), p, ta) else 0)
    if (!is.null(labels)) {
      lab <- labels[rows]
      lab <- lab[!is.na(lab)]
      if (length(lab) > 0) {
        f <- table(lab) / length(lab)
        f <- f[f > 0]
        parts["labels"] <- parts["labels"] + beta * w * (-sum(f * log(f)))
      }
    }
  }
  parts
}

cec_cost <- function(...) sum(cec_cost_parts(...))

# Largest decrease of cost (10) over all single-point moves (<= 0 at a local
# optimum of the Hartigan algorithm).
best_single_move_gain <- function(x, cluster, labels = NULL, beta = 0, type = "full",
                                  small_sample = FALSE, cov_reg = 0, param = NULL) {
  cost <- function(cl) cec_cost(x, cl, labels, beta, type, cov_reg, small_sample, param)
  base <- cost(cluster)
  best <- -Inf
  for (i in seq_along(cluster)) for (b in unique(cluster)) {
    if (b == cluster[i]) next
    moved <- cluster
    moved[i] <- b
    best <- max(best, base - cost(moved))
  }
  best
}

# Largest decrease of the cost over deleting one cluster, its points given in
# row order each to the cluster whose cost grows least (small_sample fits
# end where no such deletion pays).
best_deletion_gain <- function(x, cluster, labels = NULL, beta = 0, type = "full",
                               small_sample = TRUE) {
  cost_of <- function(rows) {
    if (length(rows) == 0) return(0)
    cec_cost(x[rows, , drop = FALSE], rep(1L, length(rows)),
             if (is.null(labels)) NULL else labels[rows], beta, type,
             small_sample = small_sample) * length(rows) / nrow(x) +
      length(rows) / nrow(x) * log(nrow(x) / length(rows))
  }
  base <- cec_cost(x, cluster, labels, beta, type, small_sample = small_sample)
  best <- -Inf
  for (a in unique(cluster)) {
    cl <- cluster
    others <- setdiff(unique(cluster), a)
    for (i in which(cluster == a)) {
      inc <- vapply(others, function(b) {
        rows <- which(cl == b)
        cost_of(c(rows, i)) - cost_of(rows)
      }, numeric(1))
      cl[i] <- others[which.min(inc)]
    }
    best <- max(best, base - cec_cost(x, cl, labels, beta, type, small_sample = small_sample))
  }
  best
}

# Mixture data: three Gaussian blobs in 2-D with labels y.
cec_blobs <- function(n_each = 30, sep = 4, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(sep, 0), c(0, sep))
  y <- rep(1:3, each = n_each)
  x <- centres[y, ] + matrix(rnorm(2 * length(y)), ncol = 2) %*% diag(c(1, 0.5))
  list(x = x, y = y)
}

# log N(x; mu, s) of every row of x.
mvn_logdens <- function(x, mu, s) {
  d <- sweep(as.matrix(x), 2, mu)
  -0.5 * (ncol(d) * log(2 * pi) + as.numeric(determinant(s)$modulus) +
            rowSums((d %*% solve(s)) * d))
}
