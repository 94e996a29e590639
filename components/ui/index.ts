/**
 * The dashboard's small UI kit (Tailwind, no other dependency). Each component documents its
 * props where it is defined. In short:
 * - Button (variant primary|secondary|ghost|danger|danger-ghost, size sm|md, loading), buttonClasses() for links
 * - Input, Textarea, Select (options, placeholder), Checkbox (label, description): `invalid` marks errors
 * - Field (label, error, hint, required) wraps one control and wires id/aria; Label
 * - Dialog (open, onClose, title, description, footer, size, dismissable, role): native modal dialog;
 *   useDialogCloseGuard lets its content step in when the user closes it
 * - useUnsavedChangesGuard (dirty): "Discard changes?" before a dirty form's dialog closes or the page is left
 * - Badge (tone), Card / CardHeader / CardBody, Spinner / LoadingBlock, EmptyState, ErrorState,
 *   Notice (inline message), ToastProvider / useToast (transient notices), CopyButton (value)
 */
export { Badge, type BadgeTone } from "./badge";
export { Button, buttonClasses, type ButtonProps } from "./button";
export { Card, CardBody, CardHeader } from "./card";
export { Checkbox } from "./checkbox";
export { cn } from "./cn";
export { CopyButton } from "./copy-button";
export { Dialog, type DialogCloseGuard, useDialogCloseGuard } from "./dialog";
export { EmptyState } from "./empty-state";
export { ErrorState, errorMessage } from "./error-state";
export { Field, Label } from "./field";
export { Input, Textarea, controlClasses } from "./input";
export { Notice } from "./notice";
export { Select, type SelectOption } from "./select";
export { LoadingBlock, Spinner } from "./spinner";
export { ToastProvider, useToast } from "./toast";
export { useUnsavedChangesGuard } from "./unsaved-changes";
