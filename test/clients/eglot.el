;;; eglot.el --- real-client matrix: Emacs eglot with editors/emacs/planls.el  -*- lexical-binding: t; -*-
;; Run by test/clients/run.sh: emacs --batch -l test/clients/eglot.el
;; with PLANLS_WS, PLANLS_EL, PLANLS_OUT, PLANLS_RC, PLANLS_BIN.  Debian's
;; elpa-eglot 1.9 and elpa-markdown-mode; "Complete #1..." and "Defer #2..."
;; run as eglot runs a picked code action, with the minibuffer answered.
(require 'package)
(package-initialize)
(require 'json)
(require 'cl-lib)

(defvar matrix-t0 (float-time))
(defvar matrix-out (list (cons 'client (format "eglot %s (Emacs %s)" "1.9" emacs-version))))
(defun matrix-ms () (round (* 1000 (- (float-time) matrix-t0))))
(defun matrix-put (k v) (push (cons k v) matrix-out))
(defun matrix-finish (err)
  (matrix-put 'ok (if err :json-false t))
  (when err (matrix-put 'error (format "%S" err)))
  (with-temp-file (getenv "PLANLS_OUT") (insert (json-encode matrix-out)))
  (kill-emacs (if err 1 0)))

(defun matrix-wait (what pred)
  (let ((deadline (+ (float-time) 10)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (unless (funcall pred) (error "timed out waiting for %s" what))))

(defun matrix-task (id)
  (let* ((json-object-type 'alist) (json-array-type 'list)
         (st (ignore-errors (json-read-file (expand-file-name ".planls/state.json" (getenv "PLANLS_WS"))))))
    (cl-find-if (lambda (x) (equal (alist-get 'id x) id)) (alist-get 'tasks st))))

(defun matrix-open-ids ()
  (sort (cl-loop for d in (flymake-diagnostics)
                 for lsp = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
                 when (equal (plist-get lsp :code) "open-item")
                 collect (plist-get (plist-get lsp :data) :id))
        #'<))

(defun matrix-action (prefix title answer)
  "Run the code action TITLE on the line starting with PREFIX; ANSWER the minibuffer."
  (goto-char (point-min))
  (search-forward-regexp (concat "^" (regexp-quote prefix)))
  (let* ((server (eglot--current-server-or-lose))
         (actions (eglot-code-actions (line-beginning-position) (line-end-position)))
         (action (cl-find-if (lambda (a) (equal (plist-get a :title) title)) actions)))
    (unless action (error "no action %s in %S" title (mapcar (lambda (a) (plist-get a :title)) actions)))
    (cl-letf (((symbol-function 'read-string) (lambda (&rest _) answer))
              ((symbol-function 'completing-read) (lambda (_p _c &rest _) title))
              ;; In batch last-nonmenu-event is nil, which eglot takes for a mouse menu.
              ((symbol-function 'x-popup-menu) (lambda (&rest _) action)))
      (eglot--read-execute-code-action (list action) server))))

(condition-case err
    (progn
      (load (getenv "PLANLS_EL"))
      (setq eglot-sync-connect t)
      (find-file (expand-file-name "PLAN.md" (getenv "PLANLS_WS")))
      (unless (derived-mode-p 'markdown-mode) (error "PLAN.md opened in %s, not markdown-mode" major-mode))
      (apply #'eglot (eglot--guess-contact))
      (matrix-wait "7 open-item diagnostics" (lambda () (equal (matrix-open-ids) '(1 2 3 4 5 6 7))))
      (matrix-put 'start_ms (matrix-ms))
      (matrix-put 'diagnostics (length (flymake-diagnostics)))

      (let ((t1 (matrix-ms)))
        (matrix-action "- Add `internal/ratelimit`" "Complete #1…" "go test ./internal/ratelimit: ok")
        (matrix-wait "#1 completed" (lambda () (equal (matrix-open-ids) '(2 3 4 5 6 7))))
        (matrix-put 'complete_ms (- (matrix-ms) t1)))
      (let ((t1 (matrix-ms)))
        (goto-char (point-min))
        (search-forward "- Wire the limiter")
        ;; The command of the documentation, on the item's line.
        (cl-letf (((symbol-function 'read-string) (lambda (&rest _) "the batch endpoint moves to the next plan")))
          (call-interactively #'planls-defer))
        (matrix-wait "#2 deferred" (lambda () (equal (matrix-open-ids) '(3 4 5 6 7))))
        (matrix-put 'defer_ms (- (matrix-ms) t1)))
      (let ((t1 (matrix-ms)))
        (call-process (getenv "PLANLS_BIN") nil nil nil "--root" (getenv "PLANLS_WS")
                      "todo" "complete" "3" "--evidence" "config test: ok")
        (matrix-wait "#3 gone after the CLI" (lambda () (equal (matrix-open-ids) '(4 5 6 7))))
        (matrix-put 'cli_ms (- (matrix-ms) t1)))
      (let* ((t1 (matrix-ms))
             (server (eglot--current-server-or-lose))
             (proc (jsonrpc--process server)))
        ;; eglot 1.9 waits for the shutdown answer (an error would land in
        ;; condition-case), sends exit, then deletes the process at once
        ;; (SIGKILL): the exit code is eglot's unless the server was faster.
        (eglot-shutdown server)
        (matrix-wait "the server process to go" (lambda () (not (process-live-p proc))))
        (matrix-put 'shutdown_ms (- (matrix-ms) t1))
        (matrix-put 'shutdown_answered t)
        (when (file-exists-p (getenv "PLANLS_RC"))
          (matrix-put 'server_rc (string-to-number (with-temp-buffer (insert-file-contents (getenv "PLANLS_RC")) (buffer-string))))))
      (matrix-finish nil))
  (error (matrix-finish err)))
