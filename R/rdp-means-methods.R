# S3 methods of dp_means() and rdp_means() fits.

method_label.rdp_means <- function(object) "RDP-means"
method_label.dp_means <- function(object) "DP-means"

#' Assign new points to the clusters of a DP-means or RDP-means fit
#'
#' New points carry no side information, so each goes to the centre with the
#' smallest divergence (after the same smoothing and normalization the fit
#' applied).
#'
#' @param object A fit from [dp_means()] or [rdp_means()].
#' @param ... Unused.
#' @param newdata Data with the same columns as the data that was clustered;
#'   by default the fitted data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @return A list with `cluster` (integer, named by the rows of `newdata`)
#'   and `cost`, the `n` x `k` matrix of divergences to every centre.
#' @examples
#' x <- scale(iris[, 1:4])
#' fit <- dp_means(x[-(1:10), ], k = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.rdp_means <- function(object, newdata, ...) {
  data <- prepare_divergence_data(prediction_data(object, newdata), object$divergence, object$smoothing,
                                  arg = "newdata", min_rows = 1L)
  if (n_coordinates(data$x) != ncol(object$centers)) {
    stop_arg("newdata", sprintf("has %d columns but the fit has %d",
                                n_coordinates(data$x), ncol(object$centers)))
  }
  cost <- .center_divergences_cpp(data$xt %||% points_for_core(data$x), t(object$centers),
                                  object$divergence)
  cluster_prediction(cost = cost, rows = point_names(data$x))
}

#' @rdname predict.rdp_means
#' @export
predict.dp_means <- predict.rdp_means
