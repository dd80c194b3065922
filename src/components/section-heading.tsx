export function SectionHeading({
  id,
  heading,
  intro,
}: {
  id: string
  heading: string
  intro?: string
}) {
  return (
    <div className="max-w-2xl">
      <h2 id={id} className="text-3xl font-semibold sm:text-4xl">
        {heading}
      </h2>
      {intro && <p className="mt-4 text-muted">{intro}</p>}
    </div>
  )
}
