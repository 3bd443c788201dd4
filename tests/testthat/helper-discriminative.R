# Plain-R references for discriminative clustering: memberships, soft
# contingency table and its log Bayes factor, written from the formulas.

# Soft memberships W (n x k) of the rows of x for prototypes m (k x p).
dc_memberships_r <- function(x, m, sigma) {
  d2 <- sapply(seq_len(nrow(m)), function(c) colSums((t(x) - m[c, ])^2))
  d2 <- matrix(d2, nrow(x))
  f <- -d2 / (2 * sigma^2)
  f <- f - apply(f, 1, max)
  w <- exp(f)
  w / rowSums(w)
}

# Soft counts n_cy (k x M) of the labelled points; y holds 1..M or NA.
dc_counts_r <- function(w, y, n_classes) {
  out <- matrix(0, ncol(w), n_classes)
  for (i in which(!is.na(y))) out[, y[i]] <- out[, y[i]] + w[i, ]
  out
}

# Log Bayes factor of a table against the model with one shared class
# distribution, Dirichlet(n0) priors, from the log marginal likelihoods.
dc_table_bf_r <- function(tab, n0) {
  log_ml <- function(counts) {
    m <- length(counts)
    lgamma(m * n0) - lgamma(sum(counts) + m * n0) + sum(lgamma(counts + n0) - lgamma(n0))
  }
  sum(apply(tab, 1, log_ml)) - log_ml(colSums(tab))
}

dc_objective_r <- function(x, y, m, sigma, n0, n_classes = max(y, na.rm = TRUE)) {
  dc_table_bf_r(dc_counts_r(dc_memberships_r(x, m, sigma), y, n_classes), n0)
}

# Central finite differences of the objective in every prototype coordinate.
dc_numeric_gradient <- function(x, y, m, sigma, n0, h = 1e-5) {
  g <- m * 0
  for (a in seq_along(m)) {
    up <- m
    down <- m
    up[a] <- up[a] + h
    down[a] <- down[a] - h
    g[a] <- (dc_objective_r(x, y, up, sigma, n0) - dc_objective_r(x, y, down, sigma, n0)) / (2 * h)
  }
  g
}

# The C++ objective, gradient (k x p) and counts at prototypes m (k x p).
dc_core_objective <- function(x, y, m, sigma, n0, n_classes = max(y, na.rm = TRUE)) {
  lab <- as.integer(y) - 1L
  lab[is.na(lab)] <- -1L
  out <- sideclust:::.discriminative_objective_cpp(t(x), lab, as.integer(n_classes), t(m),
                                                   sigma, n0)
  out$gradient <- t(out$gradient)
  out
}

# Two classes that differ only along the second, low-variance coordinate;
# the first coordinate has a much larger, class-free spread.
dc_planted <- function(n = 200, seed = 1) {
  set.seed(seed)
  y <- rep(1:2, length.out = n)
  x <- cbind(noise = stats::rnorm(n, 0, 3),
             signal = ifelse(y == 1, -1, 1) + stats::rnorm(n, 0, 0.4))
  list(x = x, y = y)
}

# The stochastic approximation written step by step in R from TR-09-12's
# steps 1-3, drawing from R's generator in the order the C++ core does: the
# point (uniform index), then two clusters by inversion of W(x).
dc_stochastic_r <- function(x, y, m, sigma, n0, epochs, step) {
  lab <- !is.na(y)
  xl <- x[lab, , drop = FALSE]
  yl <- y[lab]
  n <- nrow(xl)
  k <- nrow(m)
  n_classes <- max(yl)
  gamma <- log(dc_counts_r(dc_memberships_r(xl, m, sigma), yl, n_classes) + n0)
  gamma <- gamma - rowMeans(gamma)
  log_p <- function(g) g - log(sum(exp(g)))
  draw <- function(w) {
    u <- stats::runif(1)
    for (c in seq_len(k - 1)) {
      u <- u - w[c]
      if (u < 0) return(c)
    }
    k
  }
  total <- epochs * n
  t <- 0
  for (e in seq_len(epochs)) for (s in seq_len(n)) {
    i <- min(n - 1, floor(stats::runif(1) * n)) + 1
    w <- dc_memberships_r(xl[i, , drop = FALSE], m, sigma)[1, ]
    c <- draw(w)
    d <- draw(w)
    a <- step * (1 - t / total)
    lc <- log_p(gamma[c, ])
    ld <- log_p(gamma[d, ])
    if (c != d) {
      ratio <- ld[yl[i]] - lc[yl[i]]
      mc <- m[c, ]
      md <- m[d, ]
      m[c, ] <- mc - a * ratio * (xl[i, ] - mc)
      m[d, ] <- md + a * ratio * (xl[i, ] - md)
    }
    delta <- as.numeric(seq_len(n_classes) == yl[i])
    gamma[c, ] <- gamma[c, ] - a * (exp(lc) - delta)
    gamma[d, ] <- gamma[d, ] - a * (exp(ld) - delta)
    t <- t + 1
  }
  list(centers = m, gamma = gamma)
}
