import { RecordLoader } from '../../components/RecordLoader';
import { ScreenerForm } from './ScreenerForm';
import { useScreener } from './useScreener';

export default function ScreenerEdit() {
  return (
    <RecordLoader state={useScreener()} resource="screener">
      {(screener) => <ScreenerForm screener={screener} sponsorId={String(screener.sponsorId)} />}
    </RecordLoader>
  );
}
