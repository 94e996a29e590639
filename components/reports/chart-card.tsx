import { useId } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

/** A titled panel around one chart. */
export function ChartCard({
  title,
  description,
  actions,
  className,
  children,
}: {
  title: string;
  description?: string;
  actions?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Card aria-labelledby={id} className={className}>
      <CardHeader id={id} title={title} description={description} actions={actions} level={2} />
      <CardBody>{children}</CardBody>
    </Card>
  );
}
