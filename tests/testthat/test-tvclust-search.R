# The point estimate searched beyond the sampled draws (point_estimate =
# "search", src/tvclust/partition_search.h): never worse than the best draw,
# and on tiny problems equal to the brute-force minimum over all partitions.

expected_binder <- function(z, draws) {
  s <- sideclust:::.psm_cpp(draws)
  same <- outer(z, z, "==")
  sum(ifelse(same, 1 - s, s)[upper.tri(s)])
}
expected_vi <- function(z, draws) {
  h <- function(t) { p <- t[t > 0] / sum(t); -sum(p * log(p)) }
  mean(apply(draws, 1, function(d) 2 * h(table(z, d)) - h(table(z)) - h(table(d))))
}
# Draws scattered around `truth`: each moves two points to other clusters, so
# that `truth` itself is rarely drawn.
scattered_draws <- function(truth, count) {
  t(replicate(count, {
    z <- truth
    i <- sample(length(z), 2)
    z[i] <- z[i] %% 4 + 1 + sample(0:1, 2, TRUE)
    match(z, unique(z))
  }))
}
summary_cpp <- function(draws, loss, search) {
  sideclust:::.tvclust_summary_cpp(draws, list(loss = loss, max_candidates = 100L,
                                               search = search))
}

test_that("the search reaches the brute-force minimum of the expected Binder loss (7 points)", {
  parts <- set_partitions(7)
  improved <- 0
  for (seed in 1:3) {
    set.seed(seed)
    draws <- scattered_draws(c(1, 1, 1, 2, 2, 3, 3), 30)
    best_draw <- summary_cpp(draws, "binder", FALSE)
    found <- summary_cpp(draws, "binder", TRUE)
    brute <- min(vapply(parts, expected_binder, 0, draws = draws))
    expect_equal(found$expected_loss, expected_binder(found$estimate, draws))
    expect_equal(best_draw$expected_loss, min(best_draw$candidate_loss))
    expect_lte(found$expected_loss, best_draw$expected_loss + 1e-12)
    expect_equal(found$expected_loss, brute, tolerance = 1e-12)
    improved <- improved + (found$expected_loss < best_draw$expected_loss - 1e-9)
  }
  expect_gt(improved, 0)  # the draws alone miss the optimum here
})

test_that("the search reaches the brute-force minimum of the expected VI (6 points)", {
  parts <- set_partitions(6)
  for (seed in 2:3) {
    set.seed(seed)
    draws <- scattered_draws(c(1, 1, 1, 2, 2, 3), 30)
    best_draw <- summary_cpp(draws, "vi", FALSE)
    found <- summary_cpp(draws, "vi", TRUE)
    expect_equal(found$expected_loss, expected_vi(found$estimate, draws), tolerance = 1e-12)
    expect_lte(found$expected_loss, best_draw$expected_loss + 1e-12)
    brute <- min(vapply(parts, expected_vi, 0, draws = draws))
    expect_equal(found$expected_loss, brute, tolerance = 1e-10)
  }
})

test_that("tvclust(point_estimate = 'search') is never worse than the best draw", {
  x <- scale(iris[c(1:15, 51:65, 101:115), 1:4])
  for (loss in c("binder", "vi")) {
    for (seed in 1:3) {
      set.seed(seed)
      side <- sample_constraints(rep(1:3, each = 15), rate = 0.05, noise = 0.2)
      fit <- tvclust(x, side, iter = 60, chains = 2, threads = 1, loss = loss,
                     max_candidates = 20)
      f <- if (loss == "binder") expected_binder else expected_vi
      expect_equal(fit$point_estimate, "search")
      expect_equal(fit$expected_loss, f(fit$cluster, fit$draws), tolerance = 1e-10)
      expect_lte(fit$expected_loss, fit$best_draw_loss + 1e-12)
      set.seed(seed)
      side <- sample_constraints(rep(1:3, each = 15), rate = 0.05, noise = 0.2)
      draws_only <- tvclust(x, side, iter = 60, chains = 2, threads = 1, loss = loss,
                            max_candidates = 20, point_estimate = "draws")
      expect_equal(draws_only$draws, fit$draws)
      expect_equal(draws_only$expected_loss, fit$best_draw_loss)
      expect_equal(draws_only$best_draw_loss, fit$best_draw_loss)
      # the estimate is numbered 1..k by first point and the confidence follows it
      expect_equal(unname(fit$cluster), match(fit$cluster, unique(fit$cluster)))
      s <- psm(fit)
      conf <- vapply(seq_len(45), function(i) {
        mates <- setdiff(which(fit$cluster == fit$cluster[i]), i)
        if (length(mates)) mean(s[i, mates]) else mean(apply(fit$draws, 1, function(z) sum(z == z[i]) == 1))
      }, numeric(1))
      expect_equal(fit$confidence, conf)
    }
  }
  expect_output(print(summary(fit)), "searched from the best draw")
  expect_error(tvclust(x, iter = 10, point_estimate = "salso"), "`point_estimate` must be one of")
})

test_that("the search also runs on the summary draws when the draws are not kept", {
  x <- scale(iris[c(1:15, 51:65, 101:115), 1:4])
  set.seed(4)
  fit <- tvclust(x, iter = 60, chains = 2, threads = 1, keep_draws = FALSE, summary_draws = 20)
  expect_null(fit$draws)
  expect_lte(fit$expected_loss, fit$best_draw_loss + 1e-12)
})
