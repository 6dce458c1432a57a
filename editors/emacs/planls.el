;;; planls.el --- planls plan items in Emacs through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1
;; Package-Requires: ((emacs "28.1") (eglot "1.9") (markdown-mode "2.5"))
;; Keywords: tools, languages

;;; Commentary:

;; planls (a language server that keeps an approved PLAN.md honest) for
;; eglot: `planls serve' runs for markdown buffers, and the code actions
;; "Complete #N..." and "Defer #N..." ask for the evidence or the reason in
;; the minibuffer before they reach the server.  `planls-complete' and
;; `planls-defer' do the same for the item on the current line.
;;
;;   (require 'planls)        ; after eglot and markdown-mode
;;   (add-hook 'markdown-mode-hook #'eglot-ensure)
;;
;; markdown-mode is needed: without it PLAN.md opens in a mode eglot has no
;; server for.

;;; Code:

(require 'eglot)
(require 'flymake)

(defgroup planls nil
  "Plan items of an approved PLAN.md, through eglot."
  :group 'tools)

(defcustom planls-command '("planls" "serve")
  "The command that runs the planls language server."
  :type '(repeat string))

(add-to-list 'eglot-server-programs
             `((markdown-mode gfm-mode) . ,(lambda (&rest _) planls-command)))

(defun planls--argument (arguments)
  "The one argument object of a planls command, from ARGUMENTS (a vector)."
  (copy-sequence (and (> (length arguments) 0) (aref arguments 0))))

(defun planls--with (arguments key prompt)
  "ARGUMENTS with KEY read from the minibuffer (PROMPT takes the item id).
An argument that already has a non-blank KEY is left as it is."
  (let* ((arg (planls--argument arguments))
         (given (plist-get arg key)))
    (if (and (stringp given) (not (string-blank-p given)))
        arguments
      (let ((value (read-string (format prompt (plist-get arg :id)))))
        (when (string-blank-p value)
          (user-error "planls: nothing changed (%s is required)" (substring (symbol-name key) 1)))
        (vector (plist-put arg key value))))))

(cl-defmethod eglot-execute-command :around
  (server (command (eql planls.complete)) arguments)
  "Ask for the evidence of COMMAND on SERVER before ARGUMENTS go out."
  (cl-call-next-method server command
                       (planls--with arguments :evidence "Evidence for #%s (the check that proves it): ")))

(cl-defmethod eglot-execute-command :around
  (server (command (eql planls.defer)) arguments)
  "Ask for the reason of COMMAND on SERVER before ARGUMENTS go out."
  (cl-call-next-method server command
                       (planls--with arguments :reason "Reason to defer #%s: ")))

(defun planls--id-at-point ()
  "The plan item id of a planls diagnostic on the current line, or nil.
The diagnostic of an item gone from the file (data.gone) sits where the
item used to be, on another item's line: it is skipped."
  (cl-loop for d in (flymake-diagnostics (line-beginning-position) (line-end-position))
           for lsp = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
           for data = (plist-get lsp :data)
           for id = (plist-get data :id)
           when (and id (not (eq (plist-get data :gone) t))) return id))

(defun planls--run (command id key value)
  "Send COMMAND for item ID with KEY set to VALUE to the buffer's server."
  (eglot-execute-command (eglot--current-server-or-lose) command
                         (vector (list :id id key value
                                       :uri (eglot--path-to-uri (buffer-file-name))))))

(defun planls-complete (id evidence)
  "Complete plan item ID with EVIDENCE (the check that proves it)."
  (interactive
   (let ((id (or (planls--id-at-point) (read-number "Plan item #: "))))
     (list id (read-string (format "Evidence for #%s: " id)))))
  (planls--run 'planls.complete id :evidence evidence))

(defun planls-defer (id reason)
  "Defer plan item ID with REASON (why it is descoped)."
  (interactive
   (let ((id (or (planls--id-at-point) (read-number "Plan item #: "))))
     (list id (read-string (format "Reason to defer #%s: " id)))))
  (planls--run 'planls.defer id :reason reason))

(provide 'planls)
;;; planls.el ends here
