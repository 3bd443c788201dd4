# S3 methods of lcvqe() fits.

method_label.lcvqe <- function(object) "LCVQE"

#' Assign new points to the centres of an LCVQE fit
#'
#' New points carry no constraints, so each goes to the nearest centre
#' (squared Euclidean distance).
#'
#' @param object A fit from [lcvqe()].
#' @param newdata Data with the same columns as the data that was clustered;
#'   by default the fitted data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `cost` (the `n` x `k` squared
#'   distances to the centres), as [predict.cvqe()] returns.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- lcvqe(x[-(1:10), ], k = 3, restarts = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.lcvqe <- function(object, newdata, ...) {
  predict_nearest_centre(object, prediction_data(object, newdata))
}
