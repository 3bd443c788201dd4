# The engine's equivalences (src/engine/): a method's AVX form gives its
# portable fits exactly, and its two-thread form its one-thread fits. Each
# method enters a table with its cases and how its core is called with
# `use_avx` or `threads`; the loops at the end check every entry alike.
# The AVX form is taken only where the processor has it (for the
# prototype methods with k >= 4); elsewhere both forms are the portable one
# and the AVX checks hold trivially.

# The data of the COP-k-means and LCVQE cases: 7 classes, noisy pairs.
engine_pair_data <- function(seed, p, n = 400) {
  set.seed(seed)
  y <- rep(1:7, length.out = n)
  x <- matrix(stats::rnorm(n * p), n, p) + 2 * y
  list(x = x, side = sample_constraints(y, "nelson_cohen", n_constraints = 300, noise = 0.1))
}

# The prototype methods' cases: every p and k, crossed with one option.
engine_prototype_cases <- function(seed, option, values) {
  cases <- list()
  for (p in c(1L, 3L, 10L)) {
    d <- engine_pair_data(seed + p, p)
    for (k in c(2:9, 13)) for (v in values) {
      cases[[length(cases) + 1L]] <- list(d = d, k = k, option = stats::setNames(list(v), option),
                                          info = paste(p, k, v))
    }
  }
  cases
}

engine_prototype_run <- function(core) {
  function(case, use_avx) {
    opts <- c(list(k = case$k, restarts = 1L, max_iter = 30L, init = "kmeans++", start = NULL,
                   verbose = FALSE, order = "random"), case$option)
    set.seed(case$k)
    core(t(case$d$x), case$d$side, c(opts, list(use_avx = use_avx)))
  }
}

engine_rdp_data <- function() {
  set.seed(31)
  n <- 3000
  x <- rbind(matrix(stats::rnorm(n * 3), ncol = 3),
             matrix(stats::rnorm(30, 50), ncol = 3))  # a far group: clusters open and empty
  y <- rep(1:3, length.out = nrow(x))
  list(x = x, side = sample_constraints(y, rate = 2 / nrow(x), noise = 0.2))
}

engine_rdp_core <- function(d, lambda, order, avx, s) {
  opts <- list(lambda = lambda, xi = c(0.5, 0.5), xi_rate = 1.5, xi_max = c(4, 4),
               patience = 3L, max_iter = 12L, random_order = order != "fixed",
               uniform_order = order == "uniform", chunklet_moves = FALSE,
               divergence = "sqeuclidean", verbose = FALSE, use_avx = avx)
  set.seed(7)
  .rdp_means_cpp(t(d$x), s, opts)
}

# AVX against portable: cases() lists the inputs, run(case, use_avx) fits
# one, also() holds a method's further checks of the same test.
avx_methods <- list(
  cop_kmeans = list(
    title = "the AVX distances give the portable fits exactly",
    cases = function() engine_prototype_cases(60, "infeasible", c("nearest", "error")),
    run = engine_prototype_run(getFromNamespace(".cop_kmeans_cpp", "sideclust"))
  ),
  lcvqe = list(
    title = "the AVX distance records give the portable fits exactly",
    cases = function() engine_prototype_cases(70, "group_moves", c(FALSE, TRUE)),
    run = engine_prototype_run(getFromNamespace(".lcvqe_cpp", "sideclust"))
  ),
  mpck_means = list(
    title = "the AVX distances of PCK-means and MPCK-means give the portable fits exactly",
    cases = function() {
      cases <- list()
      for (p in c(1L, 3L, 10L)) {
        d <- mpck_core_case(p, seed = 80 + p, n = 400, classes = 7, n_constraints = 300)
        for (k in c(2:9, 13)) for (metric in c("none", "diagonal")) {
          cases[[length(cases) + 1L]] <- list(d = d, k = k, metric = metric, info = paste(p, k, metric))
        }
      }
      cases
    },
    run = function(case, use_avx) mpck_core_run(case$d, case$k, case$metric, list(use_avx = use_avx))
  ),
  rdp_means = list(
    title = "the AVX sweeps give the portable sweeps' fits exactly",
    cases = function() {
      d <- engine_rdp_data()
      cases <- list()
      # lambda from one to dozens of clusters: every group size of the distances
      for (lambda in c(1e6, 40, 8, 2, 0.5)) {
        for (order in c("random", "fixed", "uniform")) {
          for (s in list(d$side, NULL)) {
            cases[[length(cases) + 1L]] <- list(d = d, lambda = lambda, order = order, s = s,
                                                info = paste(lambda, order, is.null(s)))
          }
        }
      }
      cases
    },
    run = function(case, use_avx) {
      fit <- engine_rdp_core(case$d, case$lambda, case$order, use_avx, case$s)
      fit$interrupt_polls <- NULL
      fit
    },
    also = function() {
      d <- engine_rdp_data()
      expect_gt(engine_rdp_core(d, 0.5, "fixed", TRUE, d$side)$k, 16)
    }
  )
)

# Two threads against one: run(case, threads) fits a case.
thread_methods <- list(
  lcvqe = list(
    title = "two threads refresh the distance records to the same fit",
    # from 65536 points a helper thread takes half of the records; each
    # iteration's L and the final fit are those of one thread, bit for bit
    cases = function() {
      set.seed(80)
      n <- 70000
      y <- rep(1:4, length.out = n)
      x <- matrix(stats::rnorm(n * 3), n, 3) + 2 * y
      side <- sample_constraints(y, "nelson_cohen", n_constraints = 20000, noise = 0.05)
      cases <- list()
      for (k in c(3L, 4L, 7L)) for (avx in c(TRUE, FALSE)) {
        cases[[length(cases) + 1L]] <- list(x = x, side = side, k = k, avx = avx, info = paste(k, avx))
      }
      cases
    },
    run = function(case, threads) {
      core <- getFromNamespace(".lcvqe_cpp", "sideclust")
      opts <- list(k = case$k, restarts = 1L, max_iter = 4L, init = "kmeans++", start = NULL,
                   verbose = FALSE, order = "random", group_moves = TRUE, use_avx = case$avx)
      set.seed(case$k)
      core(t(case$x), case$side, c(opts, list(threads = threads)))
    },
    also = function() {
      # and through lcvqe(), whatever `threads` says
      d <- thread_methods$lcvqe$cases()[[1]]
      x <- d$x
      side <- d$side
      set.seed(5)
      a <- suppressWarnings(lcvqe(x, side, k = 4, restarts = 2, max_iter = 3, threads = 1))
      set.seed(5)
      b <- suppressWarnings(lcvqe(x, side, k = 4, restarts = 2, max_iter = 3, threads = 2))
      expect_identical(a[setdiff(names(a), "call")], b[setdiff(names(b), "call")])
      expect_error(lcvqe(x[1:50, ], k = 2, threads = 0), "threads")
      expect_error(lcvqe(x[1:50, ], k = 2, threads = 1.5), "threads")
    }
  ),
  mpck_means = list(
    title = "MPCK-means and PCK-means give the same fits on one thread and on two",
    # chunk = 16 hands over every 16 visits, so that these small inputs run
    # the two-thread sweep (taken from 8 chunks on); with k = 130 the
    # partners' clusters are read from the int labels instead of the bytes;
    # from 65536 points the set-up of learned metrics also takes two threads.
    # `both`: options of both runs, `two`: of the two-thread run only.
    cases = function() {
      cases <- list()
      add <- function(d, k, metric, both, two, info) {
        cases[[length(cases) + 1L]] <<- list(d = d, k = k, metric = metric, both = both, two = two,
                                             info = info)
      }
      for (p in c(1L, 3L, 10L)) {
        d <- mpck_core_case(p, seed = 100 + p, n = 500, classes = 5, n_constraints = 400)
        for (k in c(3L, 5L)) for (metric in c("none", "diagonal", "full")) for (avx in c(TRUE, FALSE)) {
          for (chunk in c(16L, 50L)) {
            add(d, k, metric, list(use_avx = avx), list(chunk = chunk), paste(p, k, metric, avx, chunk))
          }
        }
      }
      d <- mpck_core_case(3L, seed = 110, n = 400, classes = 5, n_constraints = 300)
      for (metric in c("none", "diagonal")) add(d, 130L, metric, list(), list(chunk = 16L), metric)
      big <- mpck_core_case(2L, seed = 120, n = 70000, classes = 4, n_constraints = 20000)
      for (metric in c("diagonal", "full")) add(big, 4L, metric, list(max_iter = 3L), list(), metric)
      cases
    },
    run = function(case, threads) {
      opts <- c(case$both, list(threads = threads), if (threads > 1L) case$two)
      mpck_core_run(case$d, case$k, case$metric, opts)
    },
    also = function() {
      # and through the R functions, whatever `threads` says
      set.seed(4)
      x <- matrix(rnorm(3000 * 4), 3000) + rep(1:3, 1000)
      side <- sample_constraints(rep(1:3, 1000), "nelson_cohen", n_constraints = 2000)
      set.seed(5)
      a <- mpck_means(x, side, k = 3, restarts = 2, threads = 1)
      set.seed(5)
      b <- mpck_means(x, side, k = 3, restarts = 2, threads = 2)
      expect_identical(a[setdiff(names(a), "call")], b[setdiff(names(b), "call")])
      expect_error(mpck_means(x, side, k = 3, threads = 0), "threads")
      expect_error(pck_means(x, side, k = 3, threads = 1.5), "threads")
    }
  )
)

for (method in avx_methods) {
  test_that(method$title, {
    for (case in method$cases()) {
      expect_identical(method$run(case, TRUE), method$run(case, FALSE), info = case$info)
    }
    if (!is.null(method$also)) method$also()
  })
}

for (method in thread_methods) {
  test_that(method$title, {
    for (case in method$cases()) {
      expect_identical(method$run(case, 2L), method$run(case, 1L), info = case$info)
    }
    if (!is.null(method$also)) method$also()
  })
}
