// The home screen's way back into the first-run set-up while it is neither finished nor skipped.
import { useQuery } from '@tanstack/react-query';
import '../setup/setup.css';
import { Link } from '@tanstack/react-router';
import { SETUP_STEPS } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { setupQuery } from '../setup/queries.ts';
import { SETUP_TEXT, stepNumber } from '../setup/setupSteps.ts';

export function SetupCard() {
  const setup = useQuery(setupQuery(api));
  if (!setup.data || setup.data.finished !== null) return null;
  return (
    <Link to="/app/setup" className="card card--link home-setup">
      <span className="home-card__title">{SETUP_TEXT.homeCard}</span>
      <span className="home-card__text">{SETUP_TEXT.homeCardText(stepNumber(setup.data.step), SETUP_STEPS.length)}</span>
    </Link>
  );
}
