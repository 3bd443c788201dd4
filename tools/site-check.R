# Called by tools/site-check.sh. Renders pages of docs/ in headless Chromium
# (the DOM after scripts ran, and a screenshot of each), and fails when a page
# does not render what it should, when content on any page is wider than the
# main column at 1280 px, or when an exported function has no reference page.
out <- "site-check"
dir.create(out, showWarnings = FALSE)
docs <- normalizePath("docs")
chromium <- Sys.which("chromium")
if (!nzchar(chromium)) stop("chromium not found")
flags <- c("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--window-size=1280,1600", "--virtual-time-budget=5000")

render <- function(page) {
  url <- paste0("file://", file.path(docs, page))
  if (!file.exists(file.path(docs, page))) stop("the site has no ", page)
  png <- file.path(normalizePath(out), paste0(gsub("[/.]", "-", page), ".png"))
  system2(chromium, c(flags, paste0("--screenshot=", png), url), stdout = FALSE, stderr = FALSE)
  dom <- system2(chromium, c(flags, "--dump-dom", url), stdout = TRUE, stderr = FALSE)
  if (!file.exists(png) || file.size(png) < 10000) stop("no screenshot of ", page)
  paste(dom, collapse = "\n")
}
# Content wider than its column: a copy of the page (beside it, so its links
# resolve) runs a script after the page's own that lists, inside <main>, every
# element whose content is wider than its box (it scrolls or is clipped) and
# every element that reaches past the right edge of <main>; the list is read
# back from the DOM.
probe_js <- "
window.addEventListener('load', function () { setTimeout(function () {
  var main = document.querySelector('main'), out = [];
  if (main) {
    var right = main.getBoundingClientRect().right;
    var clips = function (el) { return getComputedStyle(el).overflowX !== 'visible'; };
    var name = function (el) {
      return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/ +/).join('.') : '') +
        ' \\'' + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60) + '\\'';
    };
    main.querySelectorAll('*').forEach(function (el) {
      if (el.getClientRects().length === 0) return;
      var inside = false;
      for (var a = el.parentElement; a && a !== main; a = a.parentElement) if (clips(a)) { inside = true; break; }
      if (inside) return;
      if (clips(el) && el.scrollWidth > el.clientWidth + 1)
        out.push(name(el) + ': content ' + el.scrollWidth + ' px in a box of ' + el.clientWidth + ' px');
      else if (el.getBoundingClientRect().right > right + 1)
        out.push(name(el) + ': right edge ' + Math.round(el.getBoundingClientRect().right) + ' px past the column at ' + Math.round(right) + ' px');
    });
  } else out.push('no <main> element');
  var pre = document.createElement('pre');
  pre.id = 'site-check-overflow';
  pre.textContent = out.join('\\n');
  document.body.appendChild(pre);
}, 0); });
"
too_wide <- function(page) {
  src <- file.path(docs, page)
  probe <- file.path(dirname(src), paste0("site-check-probe-", basename(src)))
  on.exit(unlink(probe))
  html <- readLines(src, warn = FALSE)
  end <- grep("</body>", html, fixed = TRUE)
  end <- end[length(end)]
  html[end] <- sub("</body>", paste0("<script>", probe_js, "</script></body>"), html[end], fixed = TRUE)
  writeLines(html, probe)
  dom <- system2(chromium, c(flags, "--dump-dom", paste0("file://", probe)), stdout = TRUE, stderr = FALSE)
  dom <- paste(dom, collapse = "\n")
  found <- regmatches(dom, regexec('<pre id="site-check-overflow">([^<]*)</pre>', dom))[[1]]
  if (length(found) < 2) stop("the overflow probe did not run on ", page)
  lines <- strsplit(found[2], "\n", fixed = TRUE)[[1]]
  lines <- lines[nzchar(lines)]
  if (length(lines)) paste0(page, ": ", lines) else character()
}

expect_in <- function(dom, pattern, page) {
  if (!grepl(pattern, dom, fixed = TRUE)) stop(page, " does not show '", pattern, "'")
}

home <- render("index.html")
expect_in(home, "Which method when", "the home page")
expect_in(home, "reference/index.html", "the home page")

index <- render("reference/index.html")
for (title in c("Side information", "Cross-entropy clustering", "Data sets")) {
  expect_in(index, title, "the reference index")
}

articles <- c("articles/sideclust.html", "articles/parameters.html")
for (a in articles) {
  dom <- render(a)
  expect_in(dom, "<img", a)           # figures rendered
  expect_in(dom, "sourceCode", a)     # code shown
}

# Nothing wider than its column at 1280 px, on any page of the site.
site_pages <- sub(paste0("^", docs, "/"), "",
                  list.files(docs, "[.]html$", full.names = TRUE, recursive = TRUE))
site_pages <- site_pages[!grepl("site-check-probe-", site_pages)]
wide <- unlist(lapply(site_pages, too_wide))
if (length(wide)) {
  cat("Content wider than its column at 1280 px:", wide, sep = "\n")
  stop(length(wide), " elements wider than their column (listed above)")
}

# Every export must be an alias of a topic whose page exists and is linked
# from the reference index.
exports <- getNamespaceExports("sideclust")
rd <- tools::Rd_db(dir = ".")
alias_page <- unlist(lapply(names(rd), function(f) {
  a <- unlist(lapply(rd[[f]], function(tag) {
    if (identical(attr(tag, "Rd_tag"), "\\alias")) as.character(tag) else NULL
  }))
  stats::setNames(rep(sub("[.]Rd$", ".html", f), length(a)), trimws(a))
}))
no_topic <- setdiff(exports, names(alias_page))
pages <- unique(alias_page[intersect(exports, names(alias_page))])
no_page <- pages[!file.exists(file.path(docs, "reference", pages))]
unlinked <- pages[!vapply(pages, function(p) grepl(paste0('href="', p, '"'), index, fixed = TRUE), logical(1))]
if (length(no_topic) || length(no_page) || length(unlinked)) {
  stop("exports without a reference page: ", paste(c(no_topic, no_page, unlinked), collapse = ", "))
}
cat(sprintf("site check passed: %d exports on %d reference pages; home, reference index and %d articles rendered; nothing wider than its column on %d pages; screenshots in %s/\n",
            length(exports), length(pages), length(articles), length(site_pages), out))
