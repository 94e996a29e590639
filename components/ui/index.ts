// The dashboard's small UI kit (Tailwind, no other dependency); each component documents its props
// where it is defined.
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
